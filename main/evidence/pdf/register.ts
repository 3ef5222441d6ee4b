import { ENVIRONMENT_LABELS } from '../../../protocol/profiles';
import type { ProfileKind } from '../../../protocol/profiles';
import type { DocumentTimestamper, SealNote } from './seal';
import { addSealPlaceholder, sealedPdf } from './seal';
import type { Receipt } from '../../../protocol/receipt';
import type { LocalTimeOptions } from '../../../protocol/time-format';
import { localWithZone, utcIso } from '../../../protocol/time-format';
import { logPosition } from '../../../verifier/sandbox-evidence';
import type { Pdf } from './document';
import {
  DEMO_RED,
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

export interface RegisterOptions extends LocalTimeOptions {
  /** What was chosen, in words ("Matter 2024-118, anchored"), printed under the title. */
  selection: string;
  /** The environments the certifications were made in: named under the title. */
  environments: readonly ProfileKind[];
  generatedAt: Date;
  /** Seals the PDF with a document timestamp; without it the register says it is not sealed. */
  timestamper?: DocumentTimestamper;
}

interface Column {
  title: string;
  width: number;
  font?: 'regular' | 'mono';
  value(receipt: Receipt, index: number): string;
}

const COLUMNS: Column[] = [
  { title: 'No.', width: 28, value: (_r, index) => String(index + 1) },
  { title: 'File', width: 140, value: (r) => `${r.file.name}\n${r.file.size.toLocaleString('en')} bytes` },
  { title: 'Matter', width: 54, value: (r) => r.certification.matter ?? '—' },
  {
    title: 'Event / asset type',
    width: 92,
    value: (r) => `${r.certification.event_type}\n${r.certification.asset_type}`,
  },
  {
    title: 'Certified / anchored (UTC)',
    width: 94,
    value: (r) =>
      `${utcIso(Date.parse(r.certification.certified_at))}\n${r.certification.anchored_at ? utcIso(Date.parse(r.certification.anchored_at)) : 'not anchored'}`,
  },
  { title: 'State', width: 78, value: stateWords },
  { title: 'SHA-256', width: 148, font: 'mono', value: (r) => r.file.sha256.replace(/(.{32})/, '$1\n') },
  {
    title: 'Certification id / log entry',
    width: 96,
    font: 'mono',
    value: (r) => {
      const position = logPosition(r.evidence);
      return `${r.certification.certification_id ?? '—'}${position ? `\n#${position.leafIndex + 1}` : ''}`;
    },
  },
];

const FONT_SIZE = 7;
const PADDING = 3;

/**
 * A register of many certifications on landscape pages, one line each: what a paralegal hands
 * over with a production set. The receipts, not this table, are what a verifier checks.
 */
export function registerPdf(receipts: () => Iterable<Receipt>, options: RegisterOptions): Promise<Buffer> {
  return sealedPdf((seal) => renderRegister(receipts, options, seal), options.timestamper);
}

async function renderRegister(
  receipts: () => Iterable<Receipt>,
  options: RegisterOptions,
  seal: SealNote,
): Promise<Buffer> {
  const info = {
    title: 'Register of certified evidence',
    subject: options.selection,
    layout: 'landscape',
    layoutCache: false,
  } as const;
  // First pass, on a page that is never written out: every row's height, so the pages can be
  // numbered "n of N" while each is written and let go (10,000 rows never sit in memory at once).
  const measure = createPdf({ ...info, bufferPages: false }, options.generatedAt);
  const heights: number[] = [];
  let demo = false;
  for (const receipt of receipts()) {
    demo ||= receipt.demo;
    heights.push(rowHeight(measure, receipt, heights.length));
  }
  titleBlock(measure, options);
  const pageBreaks = paginate(heights, measure.y, measure.page.height - MARGIN, headerHeight(measure));
  const pages = pageBreaks.length;

  const doc = createPdf({ ...info, bufferPages: false }, options.generatedAt);
  if (seal.placeholder) addSealPlaceholder(doc);
  const count = heights.length;
  const footerText = `Register of ${count.toLocaleString('en')} certification${count === 1 ? '' : 's'} · ${options.selection} · made by Evidence Desk on ${localWithZone(options.generatedAt.getTime(), options)}${demo ? ' · includes DEMO certifications: no legal weight' : ''} · ${seal.words}`;
  const startPage = (page: number) => {
    if (page > 1) doc.addPage();
    if (demo) demoWatermark(doc);
    footer(doc, footerText, page, pages);
    if (page === 1) titleBlock(doc, options);
    else doc.y = MARGIN;
    header(doc);
  };
  startPage(1);
  let index = 0;
  let page = 1;
  for (const receipt of receipts()) {
    if (index === pageBreaks[page]) startPage(++page);
    row(doc, receipt, index, heights[index] ?? rowHeight(doc, receipt, index));
    index++;
  }
  if (count === 0) useFont(doc, 'regular', 9, MUTED).text('No certification matches this selection.', MARGIN);
  return finish(doc);
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

function titleBlock(doc: Pdf, options: RegisterOptions): void {
  useFont(doc, 'bold', 8.5, MUTED).text('EVIDENCE DESK', MARGIN, MARGIN, { characterSpacing: 1.5 });
  useFont(doc, 'bold', 18).text('Register of Certified Evidence');
  doc.text(
    useFontFor(
      doc,
      'regular',
      9,
      `${options.selection}. Environment: ${environments(options)}. Made ${localWithZone(options.generatedAt.getTime(), options)} (${utcIso(options.generatedAt.getTime())} UTC). Each certification’s receipt and certificate, saved with this register, is what anyone can verify.`,
      MUTED,
    ),
    { width: doc.page.width - 2 * MARGIN },
  );
  doc.moveDown(0.6);
}

function headerHeight(doc: Pdf): number {
  useFont(doc, 'bold', FONT_SIZE, INK);
  return 2 * PADDING + doc.currentLineHeight() * 2;
}

function header(doc: Pdf): void {
  const top = doc.y;
  let x = MARGIN;
  useFont(doc, 'bold', FONT_SIZE, INK);
  for (const column of COLUMNS) {
    doc.text(column.title, x + PADDING, top + PADDING, { width: column.width - 2 * PADDING });
    x += column.width;
  }
  const y = top + headerHeight(doc);
  useFont(doc, 'bold', FONT_SIZE, INK);
  doc.save().lineWidth(0.8).strokeColor(INK).moveTo(MARGIN, y).lineTo(x, y).stroke().restore();
  doc.y = y;
}

function cells(receipt: Receipt, index: number): { column: Column; text: string }[] {
  return COLUMNS.map((column) => ({ column, text: column.value(receipt, index) }));
}

function rowHeight(doc: Pdf, receipt: Receipt, index: number): number {
  let tallest = 0;
  for (const { column, text } of cells(receipt, index)) {
    const printed = useFontFor(doc, column.font ?? 'regular', FONT_SIZE, text);
    tallest = Math.max(tallest, doc.heightOfString(printed, { width: column.width - 2 * PADDING }));
  }
  return tallest + 2 * PADDING;
}

function row(doc: Pdf, receipt: Receipt, index: number, height: number): void {
  const top = doc.y;
  let x = MARGIN;
  for (const { column, text } of cells(receipt, index)) {
    const color = column === COLUMNS[5] && receipt.certification.state !== 'anchored' ? DEMO_RED : INK;
    doc.text(useFontFor(doc, column.font ?? 'regular', FONT_SIZE, text, color), x + PADDING, top + PADDING, {
      width: column.width - 2 * PADDING,
    });
    x += column.width;
  }
  const y = top + height;
  doc.save().lineWidth(0.4).strokeColor(RULE).moveTo(MARGIN, y).lineTo(x, y).stroke().restore();
  doc.x = MARGIN;
  doc.y = y;
}

function stateWords(receipt: Receipt): string {
  const environment = receipt.demo ? '\nDEMO' : '';
  const state = receipt.certification.state;
  if (state !== 'anchored') return `${state === 'failed' ? 'Failed' : 'Not anchored yet'}${environment}`;
  const check =
    receipt.verification?.result === 'verified'
      ? 'Anchored ✓ verified'
      : `Anchored, ${receipt.verification?.result === 'invalid' ? 'DID NOT VERIFY' : 'not checked'}`;
  return `${check}${environment}`;
}

function environments(options: RegisterOptions): string {
  if (options.environments.length === 0) return 'none';
  return options.environments.map((kind) => ENVIRONMENT_LABELS[kind]).join(', ');
}
