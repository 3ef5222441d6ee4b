import PDFDocument from 'pdfkit';
import type { FontChoice, FontName } from './fonts';
import { fontFor, fonts, runsFor } from './fonts';
import { prepareFont, withSharedFontStreams } from './shared-between-documents';

export type Pdf = PDFKit.PDFDocument;

export const INK = '#1a1a1a';
export const MUTED = '#5a5a5a';
export const RULE = '#b8b8b8';
export const DEMO_RED = '#b00020';
export const MARGIN = 56;

export interface PdfInfo {
  title: string;
  subject: string;
  keywords?: string;
  layout?: 'portrait' | 'landscape';
  /** Keep every page in memory to write on it later (a one-page certificate); a long register streams. */
  bufferPages?: boolean;
  /**
   * Remember the layout of every word set, shared between documents (prepareFont). A register of
   * 10,000 rows sets tens of thousands of unique words (hashes, ids): it lays each out afresh.
   */
  layoutCache?: boolean;
}

/**
 * An A4 document with our fonts embedded. The content also fits US Letter's height, so a firm
 * printing on either paper loses nothing.
 */
export function createPdf(info: PdfInfo, now: Date): Pdf {
  const doc = new PDFDocument({
    size: 'A4',
    layout: info.layout ?? 'portrait',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: info.bufferPages ?? true,
    fontLayoutCache: info.layoutCache ?? true,
    autoFirstPage: true,
    info: {
      Title: info.title,
      Subject: info.subject,
      ...(info.keywords ? { Keywords: info.keywords } : {}),
      Creator: 'Evidence Desk',
      Producer: 'Evidence Desk',
      CreationDate: now,
    },
    lang: 'en',
    displayTitle: true,
    // pdfkit would otherwise parse Helvetica's metrics for every document, to set it by default.
    font: null as unknown as string,
  });
  withSharedFontStreams(doc);
  // pdfkit takes a parsed fontkit font as well as bytes (its types say bytes only); each document
  // still embeds its own subset.
  for (const [name, { font }] of Object.entries(fonts())) {
    doc.registerFont(name, font as unknown as Buffer);
    prepareFont(doc, name as FontName, info.layoutCache ?? true);
  }
  doc.font('regular').fillColor(INK);
  return doc;
}

export const useFont = (doc: Pdf, font: FontName, size: number, color = INK): Pdf =>
  doc.font(font).fontSize(size).fillColor(color);

const fallbacksRegistered = new WeakMap<Pdf, Set<string>>();

/**
 * Sets the font that can draw this text (ours, or one of the computer's for Chinese, Japanese or
 * Korean) and returns the text as it will print. For anything a user or a file system wrote.
 */
export function useFontFor(doc: Pdf, font: FontName, size: number, text: string, color = INK): string {
  const choice = fontFor(text, font);
  useChoice(doc, choice, size, color);
  return choice.text;
}

/** Sets a chosen font, registering one of the computer's the first time a document uses it. */
function useChoice(doc: Pdf, choice: FontChoice, size: number, color: string): void {
  if (!(choice.name in fonts())) {
    const registered = fallbacksRegistered.get(doc) ?? new Set<string>();
    fallbacksRegistered.set(doc, registered);
    if (!registered.has(choice.name)) doc.registerFont(choice.name, choice.font as unknown as Buffer);
    registered.add(choice.name);
  }
  doc.font(choice.name).fontSize(size).fillColor(color);
}

/**
 * Writes a paragraph in runs, each in the font its characters need (fonts.ts runsFor): a name in
 * Japanese inside an English sentence, and the sentence stays in our font. At (x, y), wrapped at
 * the width given.
 */
export function textInRuns(
  doc: Pdf,
  font: FontName,
  size: number,
  text: string,
  at: { x: number; y: number },
  options: PDFKit.Mixins.TextOptions,
  color = INK,
): void {
  const runs = runsFor(text, font);
  runs.forEach((run, index) => {
    useChoice(doc, run, size, color);
    const continued = index < runs.length - 1;
    if (index === 0) doc.text(run.text, at.x, at.y, { ...options, continued });
    else doc.text(run.text, { ...options, continued });
  });
}

/** A sandbox's paper must never pass for evidence: a large diagonal mark behind the text of every page. */
export function demoWatermark(doc: Pdf): void {
  const { width, height } = doc.page;
  doc.save();
  doc.rotate(-35, { origin: [width / 2, height / 2] });
  useFont(doc, 'bold', 40, DEMO_RED).fillOpacity(0.08);
  // Wider than the page, so the rotated line is never broken in two.
  doc.text('DEMO — NO LEGAL WEIGHT', -width / 2, height / 2 - 30, {
    width: width * 2,
    align: 'center',
    lineBreak: false,
  });
  doc.restore();
  doc.fillOpacity(1).fillColor(INK);
}

/** Writes the footer on every buffered page once the content is laid out: who made it, and "page n of N". */
export function footers(doc: Pdf, text: string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    footer(doc, text, i - range.start + 1, range.count);
  }
}

/** The footer of the current page; where the text was stays where it was. */
export function footer(doc: Pdf, text: string, page: number, pages: number): void {
  const { width, height } = doc.page;
  const [x, y] = [doc.x, doc.y];
  const at = height - MARGIN + 18;
  // The bottom margin would push text written there onto a new page.
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  // At most two lines: a longer text is cut with "…" (a Latin character of 7.5 pt is about 4 pt wide).
  const box = width - 2 * MARGIN - 80;
  const most = Math.floor((2 * box) / 4);
  const shown = [...text].length > most ? `${[...text].slice(0, most - 1).join('')}…` : text;
  textInRuns(doc, 'regular', 7.5, shown, { x: MARGIN, y: at }, { width: box }, MUTED);
  useFont(doc, 'regular', 7.5, MUTED);
  doc.text(`Page ${page} of ${pages}`, width - MARGIN - 80, at, {
    width: 80,
    align: 'right',
    lineBreak: false,
  });
  doc.page.margins.bottom = bottom;
  doc.fillColor(INK);
  [doc.x, doc.y] = [x, y];
}

/** The finished document's bytes. */
export function finish(doc: Pdf): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.end();
  return done;
}
