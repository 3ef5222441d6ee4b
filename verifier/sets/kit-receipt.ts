import type { Said } from '../../protocol/said';
import type { Bound } from '../../protocol/limits';
import { LIMITS } from '../../protocol/limits';
import { boundedJson } from '../bounded-json';
import type { Ed25519Verify } from '../signature';
import type { Trust } from '../verify-receipt';
import { verifyReceipt } from '../verify-receipt';
import type { ReferenceEntry } from './reference';
import { normalName } from './reference';

/** Why a kit's file is not used, naming the bound it passed (docs/security.md). */
export const passedBound = (bound: Bound): Said => ({
  key: 'sets.why.limit',
  values: { bound: { key: `limits.${bound}` } },
});

/**
 * One receipt of an evidence kit, checked as `verify --receipt` would: an entry of the reference
 * when it holds, else why not, in words. The same in Evidence Desk and verify.html. Its bytes are
 * read within the bounds (a larger file is refused before it is parsed).
 */
export async function kitReceiptEntry(
  where: string,
  bytes: Uint8Array,
  trust: Trust,
  verifyEd25519?: Ed25519Verify,
): Promise<{ entry: ReferenceEntry } | { why: Said }> {
  if (bytes.length > LIMITS.receiptBytes) return { why: passedBound('receiptBytes') };
  const read = boundedJson(bytes);
  if (read === undefined) return { why: { key: 'sets.why.notJson' } };
  if ('refused' in read) return { why: passedBound(read.refused) };
  const json = read.json;
  const file = (json as { file?: { name?: unknown; sha256?: unknown } } | null)?.file;
  const sha256 = typeof file?.sha256 === 'string' ? file.sha256.toLowerCase() : '';
  const verdict = await verifyReceipt(sha256, json, trust, verifyEd25519);
  if (verdict.verdict === 'receipt_invalid' && verdict.bound) return { why: passedBound(verdict.bound) };
  if (verdict.verdict !== 'verified') return { why: { key: `sets.why.receipt.${verdict.verdict}` } };
  const name = typeof file?.name === 'string' ? file.name : '';
  const log = verdict.facts.log;
  return {
    entry: {
      name: normalName(name),
      writtenAs: name,
      digests: { sha256 },
      certification: {
        id: log?.certificationId ?? null,
        signedAt: log?.certifiedAt ?? verdict.facts.time?.genTime ?? null,
        anchoredAt: log?.anchoredAt ?? null,
      },
      where,
    },
  };
}
