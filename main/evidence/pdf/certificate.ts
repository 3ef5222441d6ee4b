import type { Said } from '../../../protocol/said';
import { inEnglish } from '../../../protocol/locales';
import { eventSaid, kindSaid } from '../../../protocol/vocabulary';
import { personOf } from '../../../verifier/signed-facts';
import QRCode from 'qrcode';
import { ENVIRONMENT_LABELS } from '../../../protocol/profiles';
import type { Receipt } from '../../../protocol/receipt';
import { receiptText } from '../receipt';
import type { LocalTimeOptions } from '../../../protocol/time-format';
import { localAndUtc, localWithZone, utcIso } from '../../../protocol/time-format';
import { logPosition } from '../../../verifier/sandbox-evidence';
import type { Pdf } from '../../tools/pdf/document';
import {
  DEMO_RED,
  INK,
  MARGIN,
  MUTED,
  RULE,
  createPdf,
  demoWatermark,
  finish,
  footers,
  useFont,
  textInRuns,
  useFontFor,
} from '../../tools/pdf/document';
import type { SealNote, Sealing } from '../../tools/pdf/seal';
import { SEALED_WITH_KIT_WORDS, SEALED_WORDS, addSealPlaceholder, sealedPdf } from '../../tools/pdf/seal';
import { humanSize, verificationWords } from './wording';

export interface CertificateOptions extends LocalTimeOptions {
  /** The name the receipt is attached under (and saved under beside the certificate). */
  receiptName: string;
  generatedAt: Date;
  /** Seals the PDF with a document timestamp, or says its kit seals it; without, it says it is not sealed. */
  timestamper?: Sealing;
}

const LABEL_WIDTH = 132;
const QR_SIZE = 96;
const STEP_INDENT = 14;

/**
 * A one-page certificate a lawyer can file: what was certified, the event, when (local and UTC),
 * by whom, where, and how anyone can check it. The receipt is attached to the PDF, so the
 * certificate alone is enough to verify.
 */
export function certificatePdf(
  receipt: Receipt,
  options: CertificateOptions,
  draw: DrawCertificate = renderCertificate,
): Promise<Buffer> {
  return sealedPdf((seal) => draw(receipt, options, seal), options.timestamper);
}

/** Draws a certificate's pages: here (renderCertificate), or in a worker thread (CertificateDrawers). */
export type DrawCertificate = (
  receipt: Receipt,
  options: CertificateOptions,
  seal: SealNote,
) => Promise<Buffer>;

export async function renderCertificate(
  receipt: Receipt,
  options: CertificateOptions,
  seal: SealNote,
): Promise<Buffer> {
  const doc = createPdf(
    {
      title: `Certificate — ${receipt.file.name}`,
      subject: `Evidence certification of ${receipt.file.name}`,
      keywords: `SHA-256 ${receipt.file.sha256}`,
    },
    options.generatedAt,
  );
  if (seal.placeholder) addSealPlaceholder(doc);
  if (receipt.demo) demoWatermark(doc);
  const when = (iso: string | null) => (iso === null ? null : whenText(iso, options));
  const anchored = receipt.certification.state === 'anchored';
  const position = logPosition(receipt.evidence);

  useFont(doc, 'bold', 8.5, MUTED).text('EVIDENCE DESK', MARGIN, MARGIN, { characterSpacing: 1.5 });
  useFont(doc, 'bold', 21).text(
    anchored ? 'Evidence Certificate' : 'Certification Record — Not Yet Anchored',
    { paragraphGap: 4 },
  );
  useFont(doc, 'regular', 9.5, MUTED).text(
    anchored
      ? 'The document described below was certified with the Evidence Certification Service and anchored: recorded in the service’s tamper-evident log. From then on anyone can check it.'
      : 'The document described below was submitted for certification, but was not anchored when this record was made. It cannot be verified yet; save a new certificate once it is anchored.',
  );
  doc.moveDown(0.6);
  if (receipt.demo) notice(doc, receipt.notice ?? 'DEMO — made on a sandbox: no legal weight.', DEMO_RED);
  else if (!anchored) notice(doc, receipt.status, DEMO_RED);

  const c = receipt.certification;
  const stamp = receipt.timestamp ?? null;
  // Signed facts first: what the log's leaf and tree head, and the authority's token, vouch for.
  section(doc, 'What was certified — signed');
  // Unbroken, so the hash can be searched for and copied whole from the PDF.
  field(doc, 'SHA-256', receipt.file.sha256, { font: 'mono' });
  const qrTop = doc.y;
  const beside = { rightReserve: QR_SIZE + 12 };
  field(doc, 'Event', withCode(eventSaid(c.event_type), c.event_type), beside);
  field(doc, 'Kind of document', withCode(kindSaid(c.asset_type), c.asset_type), beside);
  field(doc, 'Source system', c.source_system, beside);
  field(doc, 'Certified at', when(c.certified_at) ?? '—', beside);
  field(doc, 'Anchored at', when(c.anchored_at) ?? 'Not anchored yet', beside);
  field(
    doc,
    'Time confirmed',
    stamp
      ? `${when(stamp.gen_time) ?? ''}\nby ${stamp.authority} (RFC 3161 timestamp)`
      : 'No independent timestamp: the time rests on the service’s log alone',
    beside,
  );
  if (receipt.evidence_record) field(doc, 'Evidence record (RFC 4998)', recordWords(stamp, when), beside);
  const afterFields = doc.y;
  qrCode(
    doc,
    `SHA-256: ${receipt.file.sha256}\nCertification: ${c.certification_id ?? 'not yet issued'}`,
    qrTop,
  );
  doc.x = MARGIN;
  doc.y = Math.max(afterFields, qrTop + QR_SIZE + 8);

  section(doc, 'Stated by Evidence Desk, not signed by anyone');
  field(doc, 'File name', receipt.file.name);
  field(doc, 'Size', humanSize(receipt.file.size));
  field(doc, 'Matter', c.matter ?? '—');
  const person = personOf(c.certified_by);
  field(doc, 'Certified by', person ?? byWhom(c.certified_by));
  if (person && (c.certified_by.user || c.certified_by.computer))
    field(doc, 'Computer login', byWhom(c.certified_by));

  section(doc, 'Where');
  field(
    doc,
    'Environment',
    ENVIRONMENT_LABELS[receipt.environment.kind] + (receipt.demo ? ' — DEMO, no legal weight' : ''),
  );
  field(doc, 'Service', receipt.environment.base_url ?? 'On this computer (embedded sandbox)');
  field(doc, 'Certification id', c.certification_id ?? 'Not issued yet', { font: 'mono' });
  if (position)
    field(
      doc,
      'Position in the log',
      `Entry ${(position.leafIndex + 1).toLocaleString('en')} of ${position.treeSize.toLocaleString('en')}; tree head signed ${utcIso(position.treeHeadTimestamp)}`,
    );
  if (receipt.log_key) field(doc, 'Log key fingerprint', receipt.log_key.fingerprint, { font: 'mono' });
  field(doc, 'Checked by Evidence Desk', verificationWords(receipt));

  section(doc, 'How anyone can verify it');
  const steps = [
    `With the evidence kit: open verify.html in any web browser (it works offline and sends nothing anywhere), then drop in the document and this certificate. It says whether the document is exactly the one certified, and when.`,
    `Without the kit: this PDF carries the machine-readable receipt as an attachment (${options.receiptName}; open your PDF reader’s attachments panel, or run pdfdetach -saveall on it). The receipt lists each check, and the kit’s README shows how to make them by hand with OpenSSL.`,
    `Trust the log, not this paper: compare the log key fingerprint above with the one the service publishes. Changing a single byte of the document changes its SHA-256, and the check fails.`,
    seal.by === 'itself'
      ? `This PDF is sealed: ${SEALED_WORDS}`
      : seal.by === 'kit'
        ? `This PDF is sealed with its evidence kit, not on its own: ${SEALED_WITH_KIT_WORDS}`
        : `This PDF is not sealed by a document timestamp. ${seal.words.replace(/^Not sealed: /, 'Why: ')}`,
  ];
  // Numbered by hand, not with pdfkit's list: each step is set in the font its own text needs.
  const width = doc.page.width - 2 * MARGIN - STEP_INDENT;
  steps.forEach((step, index) => {
    const top = doc.y;
    useFont(doc, 'regular', 9).text(`${index + 1}.`, MARGIN, top, { width: STEP_INDENT });
    textInRuns(doc, 'regular', 9, step, { x: MARGIN + STEP_INDENT, y: top }, { width, paragraphGap: 3 });
  });

  footers(
    doc,
    `Made by Evidence Desk on ${localWithZone(options.generatedAt.getTime(), options)}. Receipt attached: ${options.receiptName}`,
  );
  doc.file(Buffer.from(receiptText(receipt)), {
    name: options.receiptName,
    type: 'application/json',
    description:
      'Evidence Desk receipt: the machine-readable record that verify.html and evidence-desk verify check',
    creationDate: options.generatedAt,
  });
  return finish(doc);
}

function notice(doc: Pdf, text: string, color: string): void {
  const width = doc.page.width - 2 * MARGIN;
  const printed = useFontFor(doc, 'bold', 9.5, text, color);
  const height = doc.heightOfString(printed, { width: width - 20 }) + 14;
  const top = doc.y;
  doc.save().lineWidth(1.2).strokeColor(color).rect(MARGIN, top, width, height).stroke().restore();
  doc.text(printed, MARGIN + 10, top + 7, { width: width - 20 });
  doc.x = MARGIN;
  doc.y = top + height + 6;
}

function section(doc: Pdf, title: string, ruleEnd = doc.page.width - MARGIN): void {
  doc.moveDown(0.7);
  useFont(doc, 'bold', 11).text(title, MARGIN, doc.y);
  const y = doc.y + 1;
  doc.save().lineWidth(0.6).strokeColor(RULE).moveTo(MARGIN, y).lineTo(ruleEnd, y).stroke().restore();
  doc.y = y + 4;
}

function field(
  doc: Pdf,
  label: string,
  value: string,
  { font = 'regular', rightReserve = 0 }: { font?: 'regular' | 'mono'; rightReserve?: number } = {},
): void {
  const top = doc.y;
  const valueWidth = doc.page.width - 2 * MARGIN - LABEL_WIDTH - rightReserve;
  useFont(doc, 'regular', 8.5, MUTED).text(label, MARGIN, top, { width: LABEL_WIDTH - 8 });
  const labelBottom = doc.y;
  doc.text(useFontFor(doc, font, font === 'mono' ? 8.5 : 9.5, value), MARGIN + LABEL_WIDTH, top, {
    width: valueWidth,
  });
  doc.y = Math.max(doc.y, labelBottom) + 2.5;
  doc.x = MARGIN;
}

function qrCode(doc: Pdf, text: string, top: number): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const { size, data } = qr.modules;
  const quiet = 2;
  const cell = QR_SIZE / (size + 2 * quiet);
  const left = doc.page.width - MARGIN - QR_SIZE;
  doc.save().fillColor('#ffffff').rect(left, top, QR_SIZE, QR_SIZE).fill().fillColor('#000000');
  // Each run of dark modules in a row is one rectangle: a third as many drawing operations.
  for (let row = 0; row < size; row++)
    for (let column = 0; column < size; column++) {
      if (!data[row * size + column]) continue;
      let end = column + 1;
      while (end < size && data[row * size + end]) end++;
      doc.rect(left + (column + quiet) * cell, top + (row + quiet) * cell, (end - column) * cell, cell);
      column = end;
    }
  doc.fill().restore();
  useFont(doc, 'regular', 6.5, MUTED).text('SHA-256 and certification id', left, top + QR_SIZE + 1, {
    width: QR_SIZE,
    align: 'center',
    lineBreak: false,
  });
  doc.fillColor(INK);
}

/** In the certifier's zone (the computer that made the certificate), with UTC beside it: each once. */
function whenText(iso: string, options: LocalTimeOptions): string {
  const ms = Date.parse(iso);
  return localAndUtc(ms, options, '\n');
}

/** Words, and the service's code beside them when they differ from it. */
function withCode(words: Said, code: string): string {
  const text = inEnglish(words);
  return text === code ? code : `${text} (${code})`;
}

function byWhom(by: Receipt['certification']['certified_by']): string {
  if (!by.user && !by.computer) return 'Not recorded';
  return `${by.user ?? 'an unrecorded user'} on the computer ${by.computer ?? '(name not recorded)'}`;
}

/** The evidence record (RFC 4998) kept in the receipt: its last renewal, or that it is renewed before it ends. */
function recordWords(stamp: Receipt['timestamp'], when: (iso: string) => string | null): string {
  const renewals = stamp?.renewals ?? [];
  const last = renewals.at(-1);
  if (!last) return 'Kept in the attached receipt; renewed before its timestamp’s certificate expires';
  // The time confirmed above stays as it is: a renewal only keeps it checkable.
  const times = renewals.length === 1 ? 'Renewed once, on' : `Renewed ${renewals.length} times, last on`;
  return `${times}\n${when(last.gen_time) ?? last.gen_time}\nby ${last.authority}`;
}
