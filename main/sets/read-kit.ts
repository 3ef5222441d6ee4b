import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yauzl from 'yauzl';
import type { ReceiptVerdict } from '../../protocol/receipt';
import type { Trust } from '../../verifier/verify-receipt';
import { verifyReceipt } from '../../verifier/verify-receipt';
import { nodeEd25519Verify } from '../evidence/native-signature';
import { UnreadableReference } from './read-load-file';
import type { Reference, ReferenceProblem } from '../../verifier/sets/reference';
import { EntriesBuilder } from '../store';
import { readerTurns } from '../evidence/event-loop-turns';
import { normalName } from '../../verifier/sets/reference';
import { said } from '../../protocol/said';

const RECEIPT = /(^|\/)certifications\/[^/]+\.receipt\.json$/;

/**
 * The receipts of an evidence kit, from its folder (in name order) or its zip (in the zip's
 * order), one at a time: a kit of 100,000 receipts is not held in memory. [where, text].
 */
async function* receiptsOf(path: string): AsyncGenerator<[string, string]> {
  if (statSync(path).isDirectory()) {
    const folder = join(path, 'certifications');
    if (!existsSync(folder)) throw new UnreadableReference(path, said('sets.why.notAKit'));
    for (const name of readdirSync(folder)
      .filter((name) => name.endsWith('.receipt.json'))
      .sort())
      yield [join(folder, name), readFileSync(join(folder, name), 'utf8')];
    return;
  }
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true }, (error, opened) =>
      error || !opened ? reject(new UnreadableReference(path, said('sets.why.notAZip'))) : resolve(opened),
    ),
  );
  try {
    for (let entry = await nextEntry(zip, path); entry; entry = await nextEntry(zip, path))
      if (RECEIPT.test(entry.fileName)) yield [`${path}: ${entry.fileName}`, await textOf(zip, entry, path)];
  } finally {
    zip.close();
  }
}

/** The zip's next entry, or null at its end. */
function nextEntry(zip: yauzl.ZipFile, path: string): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const done = () => zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
    const onEntry = (entry: yauzl.Entry) => (done(), resolve(entry));
    const onEnd = () => (done(), resolve(null));
    const onError = () => (done(), reject(new UnreadableReference(path, said('sets.why.zipDamaged'))));
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

function textOf(zip: yauzl.ZipFile, entry: yauzl.Entry, path: string): Promise<string> {
  const unreadable = () =>
    new UnreadableReference(`${path}: ${entry.fileName}`, said('sets.why.cannotRead', { code: 'zip' }));
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(unreadable());
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', () => reject(unreadable()));
      stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    }),
  );
}

/**
 * An evidence kit: each receipt is checked as `verify --receipt` would (signature, proof, signed
 * copies, the keys and roots trusted here). Only receipts that hold are a reference; each one
 * that does not is reported, with its verdict, and its document is then not found certified.
 */
export async function readKit(
  path: string,
  trust: Trust,
  entries: EntriesBuilder = new EntriesBuilder(),
): Promise<Reference> {
  if (!existsSync(path)) throw new UnreadableReference(path, said('sets.why.doesNotExist'));
  const problems: ReferenceProblem[] = [];
  for await (const [where, text] of receiptsOf(path)) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      problems.push({ where, why: said('sets.why.notJson') });
      continue;
    }
    const file = (json as { file?: { name?: unknown; sha256?: unknown } } | null)?.file;
    const sha256 = typeof file?.sha256 === 'string' ? file.sha256.toLowerCase() : '';
    const verdict: ReceiptVerdict = await verifyReceipt(sha256, json, trust, nodeEd25519Verify);
    if (verdict.verdict !== 'verified') {
      problems.push({ where, why: said(`sets.why.receipt.${verdict.verdict}`) });
      continue;
    }
    const name = typeof file?.name === 'string' ? file.name : '';
    const log = verdict.facts.log;
    entries.add({
      name: normalName(name),
      writtenAs: name,
      digests: { sha256 },
      certification: {
        id: log?.certificationId ?? null,
        signedAt: log?.certifiedAt ?? verdict.facts.time?.genTime ?? null,
        anchoredAt: log?.anchoredAt ?? null,
      },
      where,
    });
  }
  return {
    kind: 'kit',
    source: path,
    entries: await entries.seal({ fromWindows: false }, readerTurns()),
    problems,
    digests: [],
  };
}
