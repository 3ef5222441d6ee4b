import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Receipt } from '../../protocol/receipt';
import { receiptText } from './receipt';
import { base64ToBytes, hexToBytes } from '../../verifier/bytes';
import { certificateFingerprint } from '../../verifier/timestamp/certificate-bytes';
import { verifierPage } from './kit-verifier-page';
import type { SealWaiting } from './kit-seal-writer';
import { sealKit, sealing } from './kit-seal-writer';
import { turnTaker } from '../tools/event-loop-turns';
import { certificatePdf } from './pdf/certificate';
import { CertificateDrawers, DRAWERS_FROM } from './pdf/certificate-drawers';
import { BoundedWork } from '../tools/bounded-work';
import type { DocumentTimestamper } from '../tools/pdf/seal';
import type { SealedFile } from '../../verifier/kit-manifest';
import {
  ASIC_E_MIMETYPE,
  KIT_MIMETYPE_FILE,
  coveredBySeal,
  evidenceRecordManifest,
  kitRecordFiles,
} from '../../verifier/kit-manifest';
import type { RegisterEntry } from './pdf/register';
import { registerEntryOf } from './pdf/register';
import type { SeenInKit } from './kit-papers';
import { writePapers } from './kit-papers';
import { computerTimeZone } from '../../protocol/time-format';
import { UniqueNames, safeFileName } from './kit-folder';
import type { KitSink } from './kit-sink';
import { bothSinks, folderSink, zipSink } from './kit-sink';

export interface KitSource {
  count: number;
  /** The chosen certifications as receipts, oldest first; read once. */
  receipts(): Iterable<Receipt>;
  /** What was chosen, in words, for the register and the README. */
  selection: string;
  /** The record of a receipt made before records, whose data object is that receipt (RFC 4998, DER). */
  recordBeside?(receipt: Receipt): Uint8Array | null;
}

export interface KitTarget {
  /** The folder to write the kit into; with `zip` too, each file goes to both as it is made. */
  dir?: string;
  zip?: string;
  /** Only the receipts (certifications/NAME.receipt.json), for machines that read them. */
  receiptsOnly?: boolean;
  timeZone?: string;
  now?: Date;
  onProgress?(done: number, total: number): void;
  /** Seals the kit whole, with one RFC 3161 timestamp over its manifest (ASiC-E). */
  timestamper?: DocumentTimestamper;
  /** False leaves the kit unsealed even where an authority is set (the benchmark's reference). */
  seal?: boolean;
  /**
   * The seal may wait: a kit its authority cannot seal now is saved whole, saying so, instead of
   * failing (for whoever keeps the seal waiting until it comes: evidence-exports.ts).
   */
  sealMayWait?: boolean;
  /** The kit is being sealed: null while the authority is asked, else when its pace allows it. */
  onSealing?(until: number | null): void;
  /** Stops the kit: what was written of it goes (a folder or zip it made), and the kit rejects. */
  signal?: AbortSignal;
  /** Threads drawing certificates: one fewer than the cores unless given (the benchmark's scaling). */
  drawingThreads?: number;
}

export interface KitWritten {
  dir: string | null;
  zip: string | null;
  certifications: number;
  /** Saved complete while its authority could not seal it: what its seal waits for. */
  sealWaiting: SealWaiting | null;
}

// How many certificates are being drawn or sealed at once: enough to keep every drawing thread
// busy while others wait for their seal; few enough that memory holds only them.
const CERTIFICATES_AT_ONCE = 8;

/**
 * The kit for the other side: a receipt and a certificate per certification, the register,
 * verify.html trusting the kit's log keys, the keys as PEM, and a README. One certification at a
 * time goes through memory, so 10,000 cost what one does.
 */
export async function writeKit(source: KitSource, chosen: KitTarget): Promise<KitWritten> {
  // Saved unsealed by choice: no authority is asked, whatever is set.
  const target = chosen.seal === false ? { ...chosen, timestamper: undefined } : chosen;
  const { dir, zip } = target;
  if (!dir && !zip) throw new Error('A kit is written into a folder, a zip, or both.');
  // Only what this kit made goes when it is stopped: never a file that was there before.
  const before = dir && existsSync(dir) ? new Set(readdirSync(dir)) : null;
  const sinks = [...(dir ? [folderSink(dir)] : []), ...(zip ? [zipSink(zip)] : [])];
  const sink = sinks.length === 1 ? (sinks[0] as KitSink) : bothSinks(...sinks);
  const sealed: SealedFile[] = [];
  try {
    // The SHA-256 of each file the kit's seal covers, taken as each file goes in, not read back from disk.
    const listing: KitSink = {
      ...sink,
      put: (path, data) => {
        if (target.timestamper && coveredBySeal(path))
          sealed.push({ path, sha256: createHash('sha256').update(data).digest() });
        return sink.put(path, data);
      },
    };
    // An ASiC-E container says what it is in its first file.
    if (target.timestamper) await listing.put(KIT_MIMETYPE_FILE, ASIC_E_MIMETYPE);
    let sealWaiting: SealWaiting | null = null;
    const certifications = await writeKitInto(listing, source, target, async () => {
      if (target.timestamper) target.onSealing?.(null);
      sealWaiting = await sealKit(listing, sealed, target.timestamper, {
        mayWait: target.sealMayWait,
        now: target.now,
      });
    });
    return { dir: dir ?? null, zip: zip ?? null, certifications, sealWaiting };
  } catch (error) {
    // A kit is whole or not there at all: its zip, and what it wrote into its folder.
    await sink.abandon();
    if (dir) {
      if (!before) rmSync(dir, { recursive: true, force: true });
      else
        for (const entry of readdirSync(dir))
          if (!before.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
    }
    throw error;
  }
}

/** Writes every file of the kit into `sink`, each once, and answers how many certifications it holds. */
async function writeKitInto(
  sink: KitSink,
  source: KitSource,
  target: KitTarget,
  seal: () => Promise<void>,
): Promise<number> {
  const verifier = target.receiptsOnly ? '' : verifierPage();
  const generatedAt = target.now ?? new Date();
  // One zone for the whole kit, read once: every paper of it says the same local times.
  const timeZone = target.timeZone ?? computerTimeZone();
  // What the register shows of each receipt, kept as the receipts go by: they are read once.
  const entries: RegisterEntry[] = [];
  const names = new UniqueNames();
  const seen: SeenInKit = {
    count: 0,
    demoCount: 0,
    notAnchored: 0,
    keys: new Map(),
    tsaRoots: new Map(),
    environments: new Set(),
    records: 0,
  };
  // Certificates are made a few at a time: while one waits for its seal (a round trip to the
  // timestamping authority), the next is drawn. Memory holds those few, not the kit. The first
  // that fails fails the kit.
  const certificates = new BoundedWork(CERTIFICATES_AT_ONCE);
  const takeTurn = turnTaker();
  const drawers =
    !target.receiptsOnly && source.count >= DRAWERS_FROM
      ? new CertificateDrawers(target.drawingThreads)
      : undefined;
  try {
    for (const receipt of source.receipts()) {
      target.signal?.throwIfAborted();
      const base = names.take(safeFileName(receipt.file.name));
      const receiptName = `${base}.receipt.json`;
      const text = receiptText(receipt);
      await sink.put(`certifications/${receiptName}`, text);
      // The evidence record on its own too (RFC 4998, DER), for tools that read records, not receipts;
      // beside a receipt made before records, the record whose data object is that receipt.
      const record = receipt.evidence_record
        ? Buffer.from(receipt.evidence_record, 'base64')
        : source.recordBeside?.(receipt);
      if (record) {
        await sink.put(`certifications/${base}.ers`, Buffer.from(record));
        // And where an ASiC-E reader looks for records (EN 319 162-1), each with what it covers.
        if (target.timestamper) {
          const covers = receipt.evidence_record
            ? { path: receipt.file.name, sha256: hexToBytes(receipt.file.sha256) }
            : { path: `certifications/${receiptName}`, sha256: createHash('sha256').update(text).digest() };
          const files = kitRecordFiles(++seen.records);
          await sink.put(files.record, Buffer.from(record));
          await sink.put(files.manifest, evidenceRecordManifest(files.record, covers));
        }
      }
      if (!target.receiptsOnly) entries.push(registerEntryOf(receipt));
      if (!target.receiptsOnly)
        await certificates.add(() =>
          certificatePdf(
            receipt,
            { receiptName, generatedAt, timeZone, timestamper: sealing(target) },
            drawers?.draw,
          ).then((pdf) => sink.put(`certifications/${base}.certificate.pdf`, pdf)),
        );
      if (receipt.log_key) seen.keys.set(receipt.log_key.fingerprint, receipt.log_key.public_key);
      const root = receipt.timestamp?.chain.at(-1);
      if (root) seen.tsaRoots.set(certificateFingerprint(base64ToBytes(root)), root);
      seen.environments.add(receipt.environment.kind);
      if (receipt.demo) seen.demoCount++;
      if (receipt.certification.state !== 'anchored') seen.notAnchored++;
      seen.count++;
      target.onProgress?.(seen.count, source.count);
      await takeTurn();
    }
    await certificates.finish();
  } finally {
    // Nothing still drawing writes into a kit after it failed or was stopped.
    await certificates.settled();
    await drawers?.close();
    names.close();
  }
  target.signal?.throwIfAborted();
  if (!target.receiptsOnly)
    await writePapers(sink, source.selection, entries, seen, verifier, {
      ...target,
      now: generatedAt,
      timeZone,
    });
  target.signal?.throwIfAborted();
  await seal();
  // Cancelled while the seal waited for its authority: nothing of the kit is kept, sealed or not.
  target.signal?.throwIfAborted();
  await sink.finish();
  return seen.count;
}

export { kitFolderIn } from './kit-folder';

/** A selection in words, for the register's subtitle and the README. */
export function describeSelection(
  selection: { ids?: number[]; states?: string[]; search?: string; matter?: string },
  count: number,
): string {
  if (selection.ids) return `${count} chosen certification${count === 1 ? '' : 's'}`;
  const parts = [
    selection.matter ? `matter ${selection.matter}` : '',
    selection.states?.length ? `state ${selection.states.join(' or ')}` : 'all states',
    selection.search ? `matching “${selection.search}”` : '',
  ].filter(Boolean);
  return `Certifications in ${parts.join(', ')}`;
}
