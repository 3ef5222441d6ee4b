import { eventAndKindInEnglish } from '../../../protocol/fact-lines';
import { ENVIRONMENT_LABELS } from '../../../protocol/profiles';
import type { ProfileKind } from '../../../protocol/profiles';
import type { Sealing } from '../../tools/pdf/seal';
import type { Receipt } from '../../../protocol/receipt';
import type { LocalTimeOptions } from '../../../protocol/time-format';
import { localAndUtc, localWithZone, utcPlain } from '../../../protocol/time-format';
import { logPosition } from '../../../verifier/sandbox-evidence';
import { DEMO_RED, INK } from '../../tools/pdf/document';
import type { TableColumn } from '../../tools/pdf/table';
import { codeInLines, tablePdf } from '../../tools/pdf/table';

export interface RegisterOptions extends LocalTimeOptions {
  /** What was chosen, in words ("Matter 2024-118, anchored"), printed under the title. */
  selection: string;
  /** The environments the certifications were made in: named under the title. */
  environments: readonly ProfileKind[];
  generatedAt: Date;
  /** Seals the PDF with a document timestamp; without it the register says it is not sealed. */
  timestamper?: Sealing;
}

/** What the register shows of a receipt: kept for each while the kit is written, without its proofs. */
export type RegisterEntry = Pick<Receipt, 'file' | 'certification' | 'demo' | 'verification'> & {
  /** The certification's entry in the service's log (1 is the first), when its evidence says. */
  logEntry: number | null;
};

export function registerEntryOf(receipt: Receipt): RegisterEntry {
  const position = logPosition(receipt.evidence);
  return {
    file: receipt.file,
    certification: receipt.certification,
    demo: receipt.demo,
    verification: receipt.verification,
    logEntry: position ? position.leafIndex + 1 : null,
  };
}

// The widths fill a landscape A4 page (730 pt between the margins) at the tables' 8 pt.
const COLUMNS: TableColumn<RegisterEntry>[] = [
  { title: 'No.', width: 24, value: (_r, index) => String(index + 1) },
  { title: 'File', width: 140, value: (r) => `${r.file.name}\n${r.file.size.toLocaleString('en')} bytes` },
  { title: 'Matter', width: 56, value: (r) => r.certification.matter ?? '—' },
  {
    title: 'Event / kind of document',
    width: 88,
    value: (r) =>
      eventAndKindInEnglish(r.certification.event_type, r.certification.asset_type).replace(' · ', '\n'),
  },
  {
    title: 'Certified / anchored (UTC)',
    width: 98,
    value: (r) =>
      `${utcPlain(Date.parse(r.certification.certified_at))}\n${r.certification.anchored_at ? utcPlain(Date.parse(r.certification.anchored_at)) : 'not anchored'}`,
  },
  {
    title: 'State',
    width: 66,
    value: stateWords,
    colour: (r) => (r.certification.state !== 'anchored' ? DEMO_RED : INK),
  },
  { title: 'SHA-256', width: 166, font: 'mono', value: (r) => r.file.sha256.replace(/(.{32})/, '$1\n') },
  {
    title: 'Certification id / log entry',
    width: 92,
    font: 'mono',
    value: (r) => {
      const id = r.certification.certification_id;
      return `${id ? codeInLines(id, 16) : '—'}${r.logEntry ? `\n#${r.logEntry}` : ''}`;
    },
  },
];

/**
 * A register of many certifications on landscape pages, one line each: what a paralegal hands
 * over with a production set. The receipts, not this table, are what a verifier checks.
 */
export function registerPdf(
  entries: () => Iterable<RegisterEntry>,
  options: RegisterOptions,
): Promise<Buffer> {
  const made = localWithZone(options.generatedAt.getTime(), options);
  return tablePdf(entries, {
    title: 'Register of certified evidence',
    heading: 'Register of Certified Evidence',
    intro: `${options.selection}. Environment: ${environments(options)}. Made ${localAndUtc(options.generatedAt.getTime(), options)}. Each certification’s receipt and certificate, saved with this register, is what anyone can verify.`,
    columns: COLUMNS,
    footerText: (count, demo, sealWords) =>
      `Register of ${count.toLocaleString('en')} certification${count === 1 ? '' : 's'} · ${options.selection} · made by Evidence Desk on ${made}${demo ? ' · includes DEMO certifications: no legal weight' : ''} · ${sealWords}`,
    empty: 'No certification matches this selection.',
    isDemo: (entry) => entry.demo,
    generatedAt: options.generatedAt,
    timestamper: options.timestamper,
  });
}

function stateWords(receipt: RegisterEntry): string {
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
