import type { Receipt } from '../../protocol/receipt';
import type { CertificationRow, EvidenceSelection, ExportResult } from '../../protocol/views';
import type { ProfileConnections } from '../config/profile-connections';
import { DeskError, exportFailed } from '../errors';
import type { Logger } from '../logging/logger';
import type {
  CertificateStatusStore,
  KitSeals,
  QueueReads,
  SettingsStore,
  TimestampBatches,
  WatchedFolderStore,
} from '../store';
import type { KitTarget, KitWritten } from './kit';
import type { SealWaiting } from './kit-seal-writer';
import type { Said } from '../../protocol/said';

// Where a shell's save dialog puts a new kit: the exports' own naming, for every shell alike.
export { kitFolderIn } from './kit-folder';
import { safeFileName } from './kit-folder';
import { CertificateSaving } from './certificate-saving';
import type { DocumentTimestamper } from '../tools/pdf/seal';
import type { AuthorityPace } from '../timestamps/authority-pace';
import type { RecordChains } from '../store/record-chains';
import type { ReceiptRecords, RecordedReceipt } from '../store/receipt-records';
import type { ReceiptContext } from './receipt';
import { buildReceipt, receiptText } from './receipt';
import { evidenceRecordOf } from './records/evidence-record-of';
import type { SharedByReceipts } from './shared-by-receipts';
import { sharedByReceipts } from './shared-by-receipts';
import { said } from '../../protocol/said';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { exportRegister, selectedIds } from './register-export';

/** "Contract.pdf.certificate.pdf", as the kit names it. */
export const certificateFileName = (fileName: string): string => `${safeFileName(fileName)}.certificate.pdf`;

export interface EvidenceExportsDeps {
  reads: QueueReads;
  /** Pinned log keys, for each receipt's. */
  settings: SettingsStore;
  timestamps: TimestampBatches;
  recordChains: RecordChains;
  receiptRecords: ReceiptRecords;
  /** Where a row's watched folder was, for the register. */
  watched: Pick<WatchedFolderStore, 'get'>;
  profiles: ProfileConnections;
  log: Logger;
  activeProfileId(): string;
  /** Each authority's pace, shared with the batch tokens. */
  pace: AuthorityPace;
  /** How long one document timestamp may wait for the authority. */
  timestampTimeoutMs: number;
  /** Issuers' answers about the authorities' certificates, kept while they hold (shared with the batch tokens). */
  statuses: CertificateStatusStore;
  /** Kits saved while their authority could not seal them, until their seal is added. */
  kitSeals?: KitSeals;
  /** How soon a waiting seal is asked for again. */
  sealRetryMs?: number;
  /** A seal now waits: whoever asks authorities looks. */
  sealWaits?(): void;
}

/**
 * Evidence leaving the machine: a receipt for one certification, the kit (receipts, sealed
 * certificates, register, verify.html), and the custody register for Excel — of the active
 * profile's certifications, a few hundred rows at a time.
 */
export class EvidenceExports {
  private dragFolder: string | undefined;
  private readonly recordsBeside = new WeakMap<Receipt, Uint8Array>();

  private readonly certificates: CertificateSaving;

  constructor(private readonly deps: EvidenceExportsDeps) {
    this.certificates = new CertificateSaving({
      ...deps,
      receiptFor: (row) => this.receiptFor(row),
      documentTimestamper: () => this.documentTimestamper(),
    });
  }

  /** A certification as a self-contained receipt (docs/evidence.md), for its own environment. */
  receipt(id: number): Receipt {
    const row = this.deps.reads.get(id);
    if (!row) throw new DeskError('not_found', said('queue.noCertification', { id }));
    return this.receiptFor(row);
  }

  /**
   * `known`: what the receipts of one export share, read once for all of them; `recorded`: the
   * row's receipt record, when read with its neighbours' (null: it has none).
   */
  receiptFor(
    row: CertificationRow,
    known = this.sharedByReceipts(),
    recorded: RecordedReceipt | null = this.deps.receiptRecords.of(row.id) ?? null,
  ): Receipt {
    const { timestamps, recordChains, receiptRecords } = this.deps;
    // A receipt made before records, timestamped into one: exactly those bytes, its record beside it.
    if (recorded) {
      const receipt = JSON.parse(recorded.receipt) as Receipt;
      const record = recorded.confirmed
        ? evidenceRecordOf(receiptRecords.partsOf(recorded), recorded.reduced)
        : null;
      if (record) this.recordsBeside.set(receipt, record);
      return receipt;
    }
    const timestamp = row.timestampState === 'confirmed' ? timestamps.confirmedFor(row.id) : null;
    return buildReceipt(row, {
      environment: known.environment(row.profileId),
      logPublicKey: known.logKey(row.profileId, row.evidence),
      timestamp,
      record: timestamp?.tree === 'rfc4998' ? recordChains.partsFor(row.id, timestamp.id) : null,
    });
  }

  environmentOf(profileId: string): ReceiptContext['environment'] {
    const { profiles } = this.deps;
    return { ...profiles.summary(profileId), baseUrl: profiles.readUsable(profileId)?.baseUrl ?? null };
  }

  private sharedByReceipts(): SharedByReceipts {
    return sharedByReceipts((profileId) => this.environmentOf(profileId), this.deps.settings);
  }

  /** A certification's receipt as files carry it. */
  receiptText(id: number): string | null {
    const row = this.deps.reads.get(id);
    return row ? receiptText(this.receiptFor(row)) : null;
  }

  /** The record beside a receipt made before records (its data object is that receipt), once timestamped. */
  recordBeside(receipt: Receipt): Uint8Array | null {
    return this.recordsBeside.get(receipt) ?? null;
  }

  /**
   * Writes the evidence kit (docs/evidence.md) for the chosen certifications of the active
   * profile: receipts, certificates, the register, verify.html, the log key and a README.
   */
  async exportEvidence(selection: EvidenceSelection, target: KitTarget): Promise<ExportResult> {
    const ids = this.selectedIds(selection);
    // PDFs, fonts and zips are loaded when evidence is written, not when a command starts.
    const { describeSelection, writeKit } = await import('./kit');
    const profileId = this.deps.activeProfileId();
    const authority = await this.deps.profiles.authorityFor(profileId).catch(() => null);
    const written = await writeKit(
      {
        count: ids.length,
        selection: describeSelection(selection, ids.length),
        receipts: () => this.receiptsOf(ids),
        recordBeside: (receipt) => this.recordBeside(receipt),
      },
      {
        ...target,
        timestamper:
          target.seal === false
            ? undefined
            : await this.documentTimestamper({ onWait: target.onSealing, stop: target.signal }),
        // Where a seal can wait (a queue keeps it), a kit the authority cannot seal now is saved
        // whole and sealed when it answers, instead of not saved at all.
        sealMayWait: this.deps.kitSeals !== undefined && authority !== null,
      },
    ).catch((error: unknown) => {
      if (target.signal?.aborted) throw new DeskError('cancelled', said('exports.cancelled'));
      throw exportFailed(said('exports.kit'), target.zip ?? target.dir ?? said('exports.chosenPlace'), error);
    });
    this.deps.log.log('info', 'evidence.exported', {
      certifications: written.certifications,
      zip: written.zip !== null,
    });
    return {
      certifications: written.certifications,
      dir: written.dir,
      zip: written.zip,
      file: null,
      eventsFile: null,
      sealWaiting:
        written.sealWaiting && authority
          ? this.keepWaiting(written, written.sealWaiting, authority.url)
          : null,
    };
  }

  /** Seals of the active profile still waiting for their authority (kits, certificates), in words; null when none. */
  sealsWaiting(): Said | null {
    const waiting = this.deps.kitSeals?.waiting(this.deps.activeProfileId()) ?? [];
    const [oldest] = waiting;
    if (!oldest) return null;
    return said(waiting.length === 1 ? 'exports.sealWaiting.waitingOne' : 'exports.sealWaiting.waitingMany', {
      count: waiting.length,
      where: oldest.dir ?? oldest.zip ?? oldest.file ?? '',
      why: oldest.problem ?? '',
    });
  }

  /** A kit saved without its seal: the seal waits in the queue, and the person is told why and until when. */
  private keepWaiting(written: KitWritten, waiting: SealWaiting, tsaUrl: string): Said {
    const next = Date.now() + (this.deps.sealRetryMs ?? 10_000);
    this.deps.kitSeals?.add(
      {
        profileId: this.deps.activeProfileId(),
        tsaUrl,
        dir: written.dir,
        zip: written.zip,
        manifestSha256: waiting.manifestSha256,
        problem: waiting.reason,
      },
      next,
    );
    this.deps.log.log('warn', 'kit.seal_waiting', { problem: waiting.problem });
    this.deps.sealWaits?.();
    return said('exports.sealWaiting.saved', {
      why: waiting.reason ?? waiting.problem,
      next,
    });
  }

  /** One certification's certificate on its own, where the person chose (certificate-saving.ts). */
  saveCertificate(
    id: number,
    path: string,
    options?: { unsealed?: boolean; mayWait?: boolean },
  ): Promise<{ file: string; sealWaiting?: Said }> {
    return this.certificates.save(id, path, options);
  }

  /** A certificate whose seal waited, once its authority is asked again (certificate-saving.ts). */
  completeCertificateSeal(
    seal: { certificationId: number; file: string },
    timestamper: DocumentTimestamper,
  ): ReturnType<CertificateSaving['completeSeal']> {
    return this.certificates.completeSeal(seal, timestamper);
  }

  /**
   * An anchored certification's certificate or receipt as a file to drag out of the window (onto
   * the desktop, into an email), written once per session in a folder of its own under the
   * system's temporary folder; the drop takes a copy.
   */
  async fileToDrag(id: number, what: 'certificate' | 'receipt'): Promise<string> {
    const row = this.deps.reads.get(id);
    if (!row) throw new DeskError('not_found', said('queue.noCertification', { id }));
    this.dragFolder ??= await mkdtemp(join(tmpdir(), 'evidence-desk-drag-'));
    const name =
      what === 'certificate'
        ? certificateFileName(row.fileName)
        : `${safeFileName(row.fileName)}.receipt.json`;
    const path = join(this.dragFolder, String(id), name);
    if (existsSync(path)) return path;
    await mkdir(dirname(path), { recursive: true });
    if (what === 'certificate') return (await this.saveCertificate(id, path)).file;
    if (row.state !== 'anchored')
      throw new DeskError('invalid_input', said('exports.certificateNotAnchored', { name: row.fileName }));
    await writeFile(path, `${JSON.stringify(this.receiptFor(row), null, 2)}\n`);
    return path;
  }

  /** The chain-of-custody register (CSV for Excel) of the chosen certifications (register-export.ts). */
  async exportRegister(selection: EvidenceSelection, path: string): Promise<ExportResult> {
    const profileId = this.deps.activeProfileId();
    return exportRegister(
      { ...this.deps, profileId, environment: this.environmentOf(profileId) },
      this.selectedIds(selection),
      selection,
      path,
    );
  }

  /** Seals for one export, by the active profile's timestamping authority; none when it names none. */
  async documentTimestamper(
    during: { onWait?: (until: number) => void; stop?: AbortSignal } = {},
  ): Promise<DocumentTimestamper | undefined> {
    const { profiles } = this.deps;
    const profileId = this.deps.activeProfileId();
    const authority = await profiles.authorityFor(profileId).catch(() => null);
    if (!authority) return undefined;
    const { documentTimestamper } = await import('../timestamps/document-timestamper');
    return documentTimestamper(
      profiles.fetchFor(profileId),
      authority,
      this.deps.timestampTimeoutMs,
      this.deps.pace,
      this.deps.statuses,
      during,
    );
  }

  /** Receipts a few hundred rows at a time: a kit of 10,000 never holds them all. */
  private *receiptsOf(ids: readonly number[]): Generator<Receipt> {
    const known = this.sharedByReceipts();
    for (let i = 0; i < ids.length; i += 200) {
      const chunk = ids.slice(i, i + 200);
      const recorded = this.deps.receiptRecords.ofMany(chunk);
      for (const row of this.deps.reads.getMany(chunk))
        yield this.receiptFor(row, known, recorded.get(row.id) ?? null);
    }
  }

  /** The ids a selection names, in register order, of the active profile (register-export.ts). */
  selectedIds(selection: EvidenceSelection): number[] {
    return selectedIds(this.deps.reads, this.deps.activeProfileId(), selection);
  }
}
