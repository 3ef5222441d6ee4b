import type { Said } from '../../protocol/said';
import type { Fingerprints } from '../../protocol/sets';
import type { Bound } from '../../protocol/limits';
import { LIMITS } from '../../protocol/limits';
import { boundedJson } from '../bounded-json';
import type { Ed25519Verify } from '../signature';
import type { Trust } from '../verify-receipt';
import { verifyReceipt } from '../verify-receipt';
import type { Reference, ReferenceEntry, ReferenceProblem } from './reference';
import { normalName, noFingerprints } from './reference';

/** Why a kit's file is not used, naming the bound it passed (docs/security.md). */
export const passedBound = (bound: Bound): Said => ({
  key: 'sets.why.limit',
  values: { bound: { key: `limits.${bound}` } },
});

/** The key and root a receipt holds under that were not trusted by whoever checks. */
type NotTrusted = Partial<Record<'logKey' | 'tsaRoot', string>>;

const alsoTrusting = (trust: Trust, also: NotTrusted): Trust => ({
  logKeys: also.logKey ? [...trust.logKeys, also.logKey] : trust.logKeys,
  tsaRoots: also.tsaRoot ? [...trust.tsaRoots, also.tsaRoot] : trust.tsaRoots,
});

/**
 * One receipt of an evidence kit, checked as `verify --receipt` would: an entry of the reference
 * when it holds, else why not, in words. The same in Evidence Desk and verify.html. Its bytes are
 * read within the bounds (a larger file is refused before it is parsed). A receipt that holds
 * under a key or root not trusted here is still an entry: its certification names what it rests
 * on, and a document matching it is "certified, but signed by a key you have not trusted" — never
 * "not certified" (docs/evidence.md, "One trust rule").
 */
export async function kitReceiptEntry(
  where: string,
  bytes: Uint8Array,
  trust: Trust,
  verifyEd25519?: Ed25519Verify,
): Promise<{ entry: ReferenceEntry; notTrusted: NotTrusted } | { why: Said }> {
  if (bytes.length > LIMITS.receiptBytes) return { why: passedBound('receiptBytes') };
  const read = boundedJson(bytes);
  if (read === undefined) return { why: { key: 'sets.why.notJson' } };
  if ('refused' in read) return { why: passedBound(read.refused) };
  const json = read.json;
  const file = (json as { file?: { name?: unknown; sha256?: unknown } } | null)?.file;
  const sha256 = typeof file?.sha256 === 'string' ? file.sha256.toLowerCase() : '';
  let verdict = await verifyReceipt(sha256, json, trust, verifyEd25519);
  const notTrusted: NotTrusted = {};
  // At most the log key, then the authority's root: each is named, and the rest still checked.
  for (let round = 0; round < 2; round++) {
    if (verdict.verdict === 'untrusted_key') notTrusted.logKey = verdict.keyFingerprint;
    else if (verdict.verdict === 'untrusted_tsa') notTrusted.tsaRoot = verdict.rootFingerprint;
    else break;
    verdict = await verifyReceipt(sha256, json, alsoTrusting(trust, notTrusted), verifyEd25519);
  }
  if (verdict.verdict === 'receipt_invalid' && verdict.bound) return { why: passedBound(verdict.bound) };
  if (verdict.verdict !== 'verified') return { why: { key: `sets.why.receipt.${verdict.verdict}` } };
  const name = typeof file?.name === 'string' ? file.name : '';
  const log = verdict.facts.log;
  const rests = notTrusted.logKey || notTrusted.tsaRoot ? { untrusted: notTrusted } : {};
  return {
    entry: {
      name: normalName(name),
      writtenAs: name,
      digests: { sha256 },
      certification: {
        id: log?.certificationId ?? null,
        signedAt: log?.certifiedAt ?? verdict.facts.time?.genTime ?? null,
        anchoredAt: log?.anchoredAt ?? null,
        ...(verdict.demo ? { demo: true } : {}),
        ...rests,
      },
      where,
    },
    notTrusted,
  };
}

/** A file of a kit as read: its bytes, or why it was not read. */
export type KitFile = { where: string; bytes: Uint8Array } | { where: string; why: Said };

/**
 * A kit's receipts read one at a time into a reference, the same in Evidence Desk and verify.html.
 * With `trustKit` (the person checking compared the kit's fingerprints and chose to trust them),
 * the keys and roots its receipts carry are trusted, and the report names them.
 */
export function kitReader(
  trust: Trust,
  options: { trustKit: boolean; verifyEd25519?: Ed25519Verify },
  add: (entry: ReferenceEntry) => void,
) {
  const problems: ReferenceProblem[] = [];
  const keys = { logKeys: new Set<string>(), tsaRoots: new Set<string>() };
  let demo = false;
  return {
    async take(file: KitFile): Promise<void> {
      const read =
        'why' in file ? file : await kitReceiptEntry(file.where, file.bytes, trust, options.verifyEd25519);
      if ('why' in read) return void problems.push({ where: file.where, why: read.why });
      const { entry, notTrusted } = read;
      if (notTrusted.logKey) keys.logKeys.add(notTrusted.logKey);
      if (notTrusted.tsaRoot) keys.tsaRoots.add(notTrusted.tsaRoot);
      if (options.trustKit && entry.certification) delete entry.certification.untrusted;
      demo ||= entry.certification?.demo === true;
      add(entry);
    },
    /** What the kit says beyond its entries. */
    finish(): Pick<Reference, 'problems' | 'demo' | 'untrusted' | 'trustedFromKit'> {
      const fingerprints: Fingerprints = { logKeys: [...keys.logKeys], tsaRoots: [...keys.tsaRoots] };
      return {
        problems,
        demo,
        untrusted: options.trustKit ? noFingerprints() : fingerprints,
        trustedFromKit: options.trustKit ? fingerprints : noFingerprints(),
      };
    },
  };
}
