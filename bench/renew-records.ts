import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evidenceRecordOf } from '../main/evidence/records/evidence-record-of';
import type { Authority } from '../main/service/ask-authority';
import { askAuthority } from '../main/service/ask-authority';
import { silentLogger } from '../main/logging/logger';
import { openStore } from '../main/store';
import type { Store } from '../main/store';
import { RecordRenewal } from '../main/timestamps/record-renewal';
import { certificateFingerprint, certificatesFromPem } from '../verifier/timestamp/token';
import { hexToBytes } from '../verifier/bytes';
import { checkRecord } from '../verifier/evidence-record/check-record';
import type { BenchFigure } from './figure';
import { anchoringSandbox } from './support/core';
import { sized } from './size';

const DOCUMENTS = sized(100_000, 200);
const PER_BATCH = sized(1_000, 20);
const YEAR_MS = 365 * 24 * 3_600_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Renewing the evidence records of 100,000 documents (certified in drops of 1,000, each drop one
 * batch and so one record's timestamps) with one request to the authority (the sandbox's, in this
 * process): opening the renewal, asking, keeping the token. Against reading those 100,000 records
 * alone (each document's record as an export writes it). Time, and the heap held after collection.
 */
export async function renewRecords(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-bench-renew-'));
  const sandbox = await anchoringSandbox(dir);
  const store = openStore(join(dir, 'queue.sqlite'));
  try {
    const roots = certificatesFromPem(sandbox.tsa.rootPem);
    const authority: Authority = {
      url: sandbox.tsa.url,
      certificates: roots,
      trustedRoots: roots.map(certificateFingerprint),
      minIntervalMs: 0,
    };
    const ids = await timestampedDocuments(store, authority);
    const reading = await measured(async () => {
      let bytes = 0;
      for (let i = 0; i < ids.length; i += 500) {
        // A turn of the event loop between pages, as an export takes: the heap is sampled meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
        for (const row of store.certifications.reads.getMany(ids.slice(i, i + 500))) {
          const stamp = store.timestamps.confirmedFor(row.id);
          if (!stamp) throw new Error('A document has no timestamp.');
          const reduced = (JSON.parse(row.timestampPath as string) as string[][]).map((list) =>
            list.map(hexToBytes),
          );
          const record = evidenceRecordOf(store.recordChains.partsFor(row.id, stamp.id), reduced);
          bytes += record?.length ?? 0;
        }
      }
      return bytes;
    });
    const asked = { count: 0 };
    const renewal = new RecordRenewal({
      renewals: store.renewals,
      hashTrees: store.hashTrees,
      receiptRecords: store.receiptRecords,
      receiptTextOf: () => null,
      settings: store.settings,
      authorityFor: async () => authority,
      log: silentLogger,
      // Every record is due: renewed a century before its certificates end.
      now: Date.now,
      policy: { marginMs: 100 * YEAR_MS },
    });
    // Each renewal due, asked of the authority and kept as the engine would.
    const askDue = async () => {
      let count = 0;
      for (const batch of store.timestamps.due(Date.now())) {
        count++;
        const answer = await askAuthority(
          fetch,
          authority,
          hexToBytes(batch.root),
          30_000,
          undefined,
          'sha256',
        );
        if (!answer.ok) throw new Error(`The authority refused a renewal: ${answer.problem.key}`);
        store.timestamps.confirm(batch.id, answer);
        store.timestamps.keepValidation(batch.id, { ocsp: [], crl: [] }, null);
      }
      return count;
    };
    const renewing = await measured(async () => {
      const look = await renewal.look(true);
      asked.count += await askDue();
      return look?.opened.length ?? 0;
    });
    // Two more renewals: records of three, checked against the same documents' first timestamp alone.
    for (let more = 0; more < 2; more++) {
      await renewal.look(true);
      await askDue();
    }
    const checking = await checkedRecords(store, ids, authority);
    // One request, confirmed, extending every record.
    const batches = ids.length / PER_BATCH;
    const failures =
      (asked.count === 1 ? 0 : 1) +
      (store.renewals.waiting().length === 0 && store.renewals.lastRenewal()?.records === batches ? 0 : 1);
    const records = `${DOCUMENTS.toLocaleString('en')} documents' records (${batches} batches)`;
    return [
      {
        name: `renew ${records} with ${asked.count} request`,
        value: renewing.ms,
        reference: reading.ms,
        unit: 'ms',
        referenceName: 'reading those records alone',
        failures,
      },
      {
        name: `check a document's record of ${checking.renewals} renewals (one per batch, ${batches - Math.floor(batches / 2)} batches)`,
        value: checking.withRenewals,
        reference: checking.firstAlone,
        unit: 'ms',
        referenceName: 'the same documents’ first timestamp alone (as a v3 receipt’s)',
        failures: checking.failures,
      },
      {
        name: `heap held while renewing ${records}`,
        value: renewing.heapMb,
        reference: reading.heapMb,
        unit: 'MB',
        referenceName: 'while reading them',
        failures,
      },
    ];
  } finally {
    store.close();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A document's whole record (three renewals) checked, against a document's first archive timestamp
 * alone, per record: one document of each batch, half the batches each, so that neither measurement
 * finds the other's tokens already checked (a process checks each token once).
 */
async function checkedRecords(
  store: Store,
  ids: readonly number[],
  authority: Authority,
): Promise<{ withRenewals: number; firstAlone: number; renewals: number; failures: number }> {
  const trust = { certificates: authority.certificates, trustedRoots: authority.trustedRoots };
  // Each half of the batches once, so that no token is checked warm from the other measurement.
  const firsts = ids.filter((_, index) => index % PER_BATCH === 0);
  const half = Math.floor(firsts.length / 2);
  const records = (whole: boolean) =>
    store.certifications.reads.getMany(whole ? firsts.slice(half) : firsts.slice(0, half)).map((row) => {
      const stamp = store.timestamps.confirmedFor(row.id);
      if (!stamp) throw new Error('A document has no timestamp.');
      const reduced = (JSON.parse(row.timestampPath as string) as string[][]).map((list) =>
        list.map(hexToBytes),
      );
      const renewals = whole ? store.recordChains.renewalsOf(stamp.id) : [];
      const record = evidenceRecordOf(
        { first: store.recordChains.coveredToken(stamp.id), renewals },
        reduced,
      );
      if (!record) throw new Error('A record could not be made.');
      return { sha256: hexToBytes(row.assetHash), record };
    });
  let failures = 0;
  let renewals = 0;
  // Per record: each half has as many batches (one more at most).
  const time = async (list: ReturnType<typeof records>) => {
    const started = performance.now();
    for (const { sha256: hash, record } of list) {
      const checked = await checkRecord({ sha256: hash }, record, trust);
      if (!checked.ok) failures++;
      else renewals = Math.max(renewals, checked.facts.renewed.length);
    }
    return (performance.now() - started) / list.length;
  };
  const firstAlone = await time(records(false));
  const withRenewals = await time(records(true));
  return { withRenewals, firstAlone, renewals, failures };
}

/** Documents queued in drops, each drop's batch timestamped by the sandbox's authority over its RFC 4998 tree. */
async function timestampedDocuments(store: Store, authority: Authority): Promise<number[]> {
  const ids: number[] = [];
  for (let drop = 0; drop * PER_BATCH < DOCUMENTS; drop++) {
    const rows = store.certifications.intake.enqueue(
      Array.from({ length: PER_BATCH }, (_, i) => ({
        profileId: 'bench',
        filePath: `/bench/drop-${drop}/document-${i}.pdf`,
        fileName: `document-${i}.pdf`,
        fileSize: 1,
        assetHash: sha256(`drop ${drop} document ${i}`),
        assetType: 'document',
        sourceSystem: 'bench',
        eventType: 'DOCUMENT_FILED',
      })),
    );
    ids.push(...rows.map((row) => row.id));
    const batch = store.timestamps.open('bench', authority.url, Date.now() + 1);
    const root = store.timestamps.due(Date.now()).find((due) => due.id === batch);
    if (!root) throw new Error('The batch was not opened.');
    const answer = await askAuthority(fetch, authority, hexToBytes(root.root), 30_000, undefined, 'sha256');
    if (!answer.ok) throw new Error(`The authority refused a batch: ${answer.problem.key}`);
    store.timestamps.confirm(root.id, answer);
    // What the engine collects next (the sandbox's OCSP answers) is not what is measured here.
    store.timestamps.keepValidation(root.id, { ocsp: [], crl: [] }, null);
  }
  return ids;
}

/** How long work takes, and the heap it holds at its peak (sampled) above what was held before. */
async function measured<T>(work: () => Promise<T>): Promise<{ ms: number; heapMb: number; result: T }> {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampling = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return { ms, heapMb: (peak - before) / 1_048_576, result };
  } finally {
    clearInterval(sampling);
  }
}
