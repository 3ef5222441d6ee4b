import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yauzl from 'yauzl';
import type { ReceiptVerdict } from '../../protocol/receipt';
import type { Trust } from '../../verifier/verify-receipt';
import { verifyReceipt } from '../../verifier/verify-receipt';
import { nodeEd25519Verify } from '../evidence/native-signature';
import { UnreadableReference } from './read-load-file';
import type { Reference, ReferenceEntry, ReferenceProblem } from '../../verifier/sets/reference';
import { normalName } from '../../verifier/sets/reference';
import { said } from '../../protocol/said';

const RECEIPT = /(^|\/)certifications\/[^/]+\.receipt\.json$/;

/** The receipts of an evidence kit, from its folder or its zip: [where, text]. */
async function receiptsOf(path: string): Promise<[string, string][]> {
  if (statSync(path).isDirectory()) {
    const folder = join(path, 'certifications');
    if (!existsSync(folder)) throw new UnreadableReference(path, said('sets.why.notAKit'));
    return readdirSync(folder)
      .filter((name) => name.endsWith('.receipt.json'))
      .sort()
      .map((name) => [join(folder, name), readFileSync(join(folder, name), 'utf8')]);
  }
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(new UnreadableReference(path, said('sets.why.notAZip')));
      const found: [string, string][] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!RECEIPT.test(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream)
            return reject(
              new UnreadableReference(
                `${path}: ${entry.fileName}`,
                said('sets.why.cannotRead', { code: 'zip' }),
              ),
            );
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            found.push([`${path}: ${entry.fileName}`, Buffer.concat(chunks).toString('utf8')]);
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(found.sort(([a], [b]) => (a < b ? -1 : 1))));
      zip.on('error', () => reject(new UnreadableReference(path, said('sets.why.zipDamaged'))));
      zip.readEntry();
    });
  });
}

/**
 * An evidence kit: each receipt is checked as `verify --receipt` would (signature, proof, signed
 * copies, the keys and roots trusted here). Only receipts that hold are a reference; each one
 * that does not is reported, with its verdict, and its document is then not found certified.
 */
export async function readKit(path: string, trust: Trust): Promise<Reference> {
  if (!existsSync(path)) throw new UnreadableReference(path, said('sets.why.doesNotExist'));
  const entries: ReferenceEntry[] = [];
  const problems: ReferenceProblem[] = [];
  for (const [where, text] of await receiptsOf(path)) {
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
    entries.push({
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
  return { kind: 'kit', source: path, entries, fromWindows: false, problems, digests: [] };
}
