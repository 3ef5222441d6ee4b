import type { SetReport } from '../../protocol/sets';

/**
 * What main keeps for one window between its calls: what it saved (only those paths may be shown
 * in the file manager), the folders the person chose in the folder dialog (only those may be
 * watched), the kit being saved (for Cancel), and its last set verification (for Save report; it
 * may hold 100,000 lines, so it stays in main). The IPC adapter asks it; it owns none of this.
 */
export class WindowSession {
  private readonly saved = new Set<string>();
  private readonly chosenFolders = new Set<string>();
  private exporting: AbortController | null = null;
  private setReport: SetReport | null = null;

  /** Paths this window saved: "Open folder" may show them. Returns `result` unchanged. */
  remember<T extends object>(result: T, ...paths: (string | null)[]): T {
    for (const path of paths) if (path) this.saved.add(path);
    return result;
  }

  savedHere(path: string): boolean {
    return this.saved.has(path);
  }

  chose(folder: string): void {
    this.chosenFolders.add(folder);
  }

  wasChosen(folder: string): boolean {
    return this.chosenFolders.has(folder);
  }

  /** A kit starts being saved: Cancel stops this one from now on (while the folder is chosen too). */
  startExport(): AbortController {
    const stop = new AbortController();
    this.exporting = stop;
    return stop;
  }

  endExport(stop: AbortController): void {
    if (this.exporting === stop) this.exporting = null;
  }

  cancelExport(): void {
    this.exporting?.abort();
  }

  /** The window's last set verification: the one before is closed, and no longer saved from. */
  keepSetReport(report: SetReport): SetReport {
    this.setReport?.results.close();
    this.setReport = report;
    return report;
  }

  get lastSetReport(): SetReport | null {
    return this.setReport;
  }
}
