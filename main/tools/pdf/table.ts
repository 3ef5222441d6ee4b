import { turnTaker } from '../event-loop-turns';
import type { SealNote, Sealing } from './seal';
import { addSealPlaceholder, sealedPdf } from './seal';
import type { Pdf } from './document';
import {
  INK,
  MARGIN,
  MUTED,
  RULE,
  createPdf,
  demoWatermark,
  finish,
  footer,
  useFont,
  useFontFor,
} from './document';

/** One column of a table document: its heading, width (pt), font, and each row's text and colour. */
export interface TableColumn<T> {
  title: string;
  width: number;
  font?: 'regular' | 'mono';
  value(row: T, index: number): string;
  colour?(row: T): string;
}

export interface TableDocument<T> {
  /** The PDF's metadata title, and the heading printed on the first page. */
  title: string;
  heading: string;
  /** Printed under the heading: what the table is of, and what it rests on. */
  intro: string;
  /** Printed after the intro, before the table, in bold (a summary). */
  lead?: string[];
  columns: TableColumn<T>[];
  /** Each page's footer, before "Page n of N". */
  footerText(rows: number, demo: boolean, sealWords: string): string;
  empty: string;
  isDemo(row: T): boolean;
  generatedAt: Date;
  timestamper?: Sealing;
}

// Read at arm's length on paper: 8 pt, the size of a contract's footnotes.
const FONT_SIZE = 8;

/**
 * A code (a certification id, a UUID) in lines of at most `characters`, broken only after its
 * hyphens: a part of a code is never split across lines, where a reader would misread it.
 */
export function codeInLines(code: string, characters: number): string {
  const lines: string[] = [];
  for (const part of code.split(/(?<=-)/))
    if (lines.length && (lines.at(-1) as string).length + part.length <= characters)
      lines[lines.length - 1] += part;
    else lines.push(part);
  return lines.join('\n');
}
const PADDING = 3;

/**
 * Many rows on landscape pages, one line each, with the columns' headings on every page. Rows are
 * read twice (measured, then written) so that pages are numbered "n of N" while each is written and
 * let go: 100,000 rows never sit in memory at once. Sealed with a document timestamp when asked.
 */
export function tablePdf<T>(rows: () => Iterable<T>, table: TableDocument<T>): Promise<Buffer> {
  return sealedPdf((seal) => render(rows, table, seal), table.timestamper);
}

async function render<T>(rows: () => Iterable<T>, table: TableDocument<T>, seal: SealNote): Promise<Buffer> {
  const info = { title: table.title, subject: table.intro, layout: 'landscape', layoutCache: false } as const;
  const measure = measuringOnly(createPdf({ ...info, bufferPages: false }, table.generatedAt));
  const heights: number[] = [];
  let demo = false;
  const takeTurn = turnTaker();
  for (const row of rows()) {
    demo ||= table.isDemo(row);
    heights.push(rowHeight(measure, table.columns, row, heights.length));
    await takeTurn();
  }
  titleBlock(measure, table);
  const pageBreaks = paginate(heights, measure.y, measure.page.height - MARGIN, headerHeight(measure));
  const pages = pageBreaks.length;

  const doc = createPdf({ ...info, bufferPages: false }, table.generatedAt);
  if (seal.placeholder) addSealPlaceholder(doc);
  const footerText = table.footerText(heights.length, demo, seal.words);
  const startPage = (page: number) => {
    if (page > 1) doc.addPage();
    if (demo) demoWatermark(doc);
    footer(doc, footerText, page, pages);
    if (page === 1) titleBlock(doc, table);
    else doc.y = MARGIN;
    header(doc, table.columns);
  };
  startPage(1);
  let index = 0;
  let page = 1;
  for (const row of rows()) {
    if (index === pageBreaks[page]) startPage(++page);
    line(doc, table.columns, row, index, heights[index] ?? rowHeight(doc, table.columns, row, index));
    index++;
    await takeTurn();
  }
  if (heights.length === 0) useFont(doc, 'regular', 9, MUTED).text(table.empty, MARGIN);
  return finish(doc);
}

/**
 * A document that lays text out but keeps none of it: it only measures. Its one page would
 * otherwise hold every drawing operation of 10,000 rows until the end (40 MB for a register).
 */
function measuringOnly(doc: Pdf): Pdf {
  (doc as unknown as { addContent(): Pdf }).addContent = () => doc;
  return doc;
}

/** The index of the first row on each page (the first page starts at 0, below the title). */
function paginate(
  heights: readonly number[],
  firstTop: number,
  bottom: number,
  headerSize: number,
): number[] {
  const breaks = [0];
  let y = firstTop + headerSize;
  heights.forEach((height, index) => {
    if (y + height > bottom && index > 0) {
      breaks.push(index);
      y = MARGIN + headerSize;
    }
    y += height;
  });
  return breaks;
}

function titleBlock<T>(doc: Pdf, table: TableDocument<T>): void {
  const width = doc.page.width - 2 * MARGIN;
  useFont(doc, 'bold', 8.5, MUTED).text('EVIDENCE DESK', MARGIN, MARGIN, { characterSpacing: 1.5 });
  useFont(doc, 'bold', 18).text(table.heading);
  doc.text(useFontFor(doc, 'regular', 9, table.intro, MUTED), { width });
  for (const text of table.lead ?? []) {
    doc.moveDown(0.3);
    doc.text(useFontFor(doc, 'bold', 10, text), { width });
  }
  doc.moveDown(0.6);
}

function headerHeight(doc: Pdf): number {
  useFont(doc, 'bold', FONT_SIZE, INK);
  return 2 * PADDING + doc.currentLineHeight() * 2;
}

function header<T>(doc: Pdf, columns: readonly TableColumn<T>[]): void {
  const top = doc.y;
  let x = MARGIN;
  useFont(doc, 'bold', FONT_SIZE, INK);
  for (const column of columns) {
    doc.text(column.title, x + PADDING, top + PADDING, { width: column.width - 2 * PADDING });
    x += column.width;
  }
  const y = top + headerHeight(doc);
  useFont(doc, 'bold', FONT_SIZE, INK);
  doc.save().lineWidth(0.8).strokeColor(INK).moveTo(MARGIN, y).lineTo(x, y).stroke().restore();
  doc.y = y;
}

function rowHeight<T>(doc: Pdf, columns: readonly TableColumn<T>[], row: T, index: number): number {
  let tallest = 0;
  for (const column of columns) {
    const printed = useFontFor(doc, column.font ?? 'regular', FONT_SIZE, column.value(row, index));
    tallest = Math.max(tallest, doc.heightOfString(printed, { width: column.width - 2 * PADDING }));
  }
  return tallest + 2 * PADDING;
}

function line<T>(doc: Pdf, columns: readonly TableColumn<T>[], row: T, index: number, height: number): void {
  const top = doc.y;
  let x = MARGIN;
  for (const column of columns) {
    const text = useFontFor(
      doc,
      column.font ?? 'regular',
      FONT_SIZE,
      column.value(row, index),
      column.colour?.(row) ?? INK,
    );
    doc.text(text, x + PADDING, top + PADDING, { width: column.width - 2 * PADDING });
    x += column.width;
  }
  const y = top + height;
  doc.save().lineWidth(0.4).strokeColor(RULE).moveTo(MARGIN, y).lineTo(x, y).stroke().restore();
  doc.x = MARGIN;
  doc.y = y;
}
