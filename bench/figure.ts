export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  /** The same kind of figure for the reference, measured in the same run on the same machine. */
  reference: number;
  referenceName: string;
  /** Requests or items that did not succeed: a figure with failures is reported as invalid. */
  failures: number;
  /** What the ratio should be, when the project has set a target. */
  target?: { atLeast?: number; atMost?: number };
}

export function ratioOf(figure: BenchFigure): number {
  return figure.value / figure.reference;
}
