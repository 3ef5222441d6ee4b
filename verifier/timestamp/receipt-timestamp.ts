import type {
  Receipt,
  ReceiptTimestamp,
  ReceiptVerdict,
  RecordSummary,
  TimeFacts,
} from '../../protocol/receipt';
import { SANDBOX_TSA_POLICY } from '../../protocol/receipt';
import { base64ToBytes, bytesToHex, hexToBytes, isCanonicalBase64 } from '../bytes';
import { rootFromSidedPath } from '../merkle';
import { rootFrom } from '../evidence-record/hash-tree';
import type { RecordFacts } from '../evidence-record/check-record';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import type { TokenCheck } from './token';
import { checkTimestampToken } from './token';
import { copyRefused } from '../signed-facts';
import type { ChainStanding } from './chain-standing';
import { chainStandingAt } from './chain-standing';

// Every receipt of a batch carries the same token over the same root, with the same validation
// data: a set of 10,000 documents certified in one drop needs them checked once. The answer
// depends only on these inputs.
const checked = new Map<string, Promise<{ token: TokenCheck; standing: ChainStanding | null }>>();
const CACHE_LIMIT = 256;

function checkedOnce(
  stamp: ReceiptTimestamp,
  root: Uint8Array,
  trustedRoots: readonly string[],
): Promise<{ token: TokenCheck; standing: ChainStanding | null }> {
  const { token, chain, validation } = stamp;
  // An RFC 4998 tree's root is the imprint itself; an RFC 6962 tree's is hashed once more.
  const imprintIsDigest = stamp.reduced !== undefined;
  const key = [
    imprintIsDigest,
    token,
    chain.join(','),
    validation ? `${validation.ocsp.join(',')};${validation.crl.join(',')}` : '-',
    bytesToHex(root),
    [...trustedRoots].sort().join(','),
  ].join('|');
  let check = checked.get(key);
  if (!check) {
    if (checked.size >= CACHE_LIMIT) checked.delete(checked.keys().next().value as string);
    check = (async () => {
      const tokenCheck = await checkTimestampToken(base64ToBytes(token), {
        data: root,
        ...(imprintIsDigest ? { dataSha256: root, imprintIsDigest } : {}),
        certificates: chain.map(base64ToBytes),
        trustedRoots,
      });
      if (!tokenCheck.ok) return { token: tokenCheck, standing: null };
      const kept = validation && {
        ocsp: validation.ocsp.map(base64ToBytes),
        crl: validation.crl.map(base64ToBytes),
      };
      return {
        token: tokenCheck,
        standing: await chainStandingAt(tokenCheck.chain, kept ?? null, tokenCheck.genTime),
      };
    })();
    checked.set(key, check);
  }
  return check;
}

/**
 * A receipt's independent timestamp: its path leads from this file's hash to the batch root, the
 * token over that root holds and chains to a trusted authority, and the readable copies (time,
 * authority) equal what the token signed. No timestamp is no facts, not a failure.
 */
export async function checkReceiptTimestamp(
  receipt: Receipt,
  fileSha256: string,
  trustedRoots: readonly string[],
): Promise<ReceiptVerdict | { facts: TimeFacts | null }> {
  const stamp = receipt.timestamp;
  if (!stamp) return { facts: null };
  const invalid = (
    check: Extract<ReceiptVerdict, { verdict: 'timestamp_invalid' }>['check'],
    message: string,
  ) => ({ verdict: 'timestamp_invalid', check, message }) as const;
  const fileHash = hexToBytes(fileSha256.toLowerCase());
  const root = stamp.reduced
    ? stamp.path.length === 0
      ? rootFrom(
          fileHash,
          stamp.reduced.map((list) => list.map(hexToBytes)),
        )
      : null
    : rootFromSidedPath(
        fileHash,
        stamp.path.map((step) => ({ side: step.side, hash: hexToBytes(step.hash) })),
      );
  if (!root || bytesToHex(root) !== stamp.root)
    return invalid(
      'path',
      'The path in the receipt does not lead from this file’s hash to the timestamped root.',
    );
  if (!isCanonicalBase64(stamp.token) || !stamp.chain.every(isCanonicalBase64))
    return invalid('format', 'The timestamp token in the receipt is not valid base64.');
  const validation = stamp.validation;
  if (validation && ![...validation.ocsp, ...validation.crl].every(isCanonicalBase64))
    return invalid('format', 'The validation data kept with the timestamp is not valid base64.');
  const { token: check, standing: checkedStanding } = await checkedOnce(stamp, root, trustedRoots);
  if (!check.ok && check.check === 'untrusted')
    return {
      verdict: 'untrusted_tsa',
      rootFingerprint: check.rootFingerprint,
      authority: check.authority,
      message: check.message,
    };
  if (!check.ok) return invalid(check.check, check.message);
  const genTime = check.genTime.toISOString();
  const token = 'the timestamp token' as const;
  if (Date.parse(stamp.gen_time) !== check.genTime.getTime())
    return copyRefused({ field: 'timestamp.gen_time', signedBy: token });
  if (stamp.authority !== check.authority)
    return copyRefused({ field: 'timestamp.authority', signedBy: token });
  const standing = checkedStanding as ChainStanding;
  if (standing.revoked)
    return invalid(
      'revoked',
      standing.compromise
        ? `The certificate of ${standing.certificate} was revoked on ${standing.revokedAt} because its key was compromised: nothing it signed can be relied on.`
        : `The certificate of ${standing.certificate} was revoked on ${standing.revokedAt}, before it signed this timestamp.`,
    );
  return {
    facts: {
      authority: check.authority,
      genTime,
      rootFingerprint: check.rootFingerprint,
      demo: check.policy === SANDBOX_TSA_POLICY,
      standing: standing.standing,
    },
  };
}

/**
 * A receipt's evidence record (v4): it covers this file and each renewal the one before, every token
 * holding (docs/evidence.md, "Evidence records"); what it proves, or why it does not hold.
 */
export async function checkReceiptRecord(
  receipt: Receipt,
  record: string,
  document: { sha256: string; sha512?: () => Promise<Uint8Array> },
  trustedRoots: readonly string[],
): Promise<ReceiptVerdict | RecordSummary> {
  if (!isCanonicalBase64(record))
    return {
      verdict: 'timestamp_invalid',
      check: 'format',
      message: 'The evidence record in the receipt is not valid base64.',
    };
  const { checkRecord } = await import('../evidence-record/check-record');
  const checked = await checkRecord(
    {
      sha256: hexToBytes(document.sha256.toLowerCase()),
      ...(document.sha512 ? { sha512: document.sha512 } : {}),
    },
    base64ToBytes(record),
    { certificates: [], trustedRoots },
  );
  if (!checked.ok && checked.untrusted)
    return { verdict: 'untrusted_tsa', message: checked.why, ...checked.untrusted };
  if (!checked.ok) return { verdict: 'timestamp_invalid', check: 'record', message: checked.why };
  const { renewed } = checked.facts;
  // The receipt's readable copies of the renewals are, each, what the record's tokens signed, or refused.
  const copies = receipt.timestamp?.renewals ?? [];
  if (
    copies.length !== renewed.length ||
    copies.some(
      (copy, i) =>
        Date.parse(copy.gen_time) !== renewed[i]?.genTime.getTime() ||
        copy.authority !== renewed[i]?.authority,
    )
  )
    return copyRefused({ field: 'timestamp.renewals', signedBy: 'the evidence record' });
  return summaryOf(checked.facts);
}

/**
 * The record beside a receipt made before records, whose data object is that receipt (its exact
 * bytes): what it proves of the receipt, or why it does not hold (docs/evidence.md, "Evidence records").
 */
export async function checkRecordOfReceipt(
  receiptBytes: Uint8Array,
  record: Uint8Array,
  trustedRoots: readonly string[],
): Promise<ReceiptVerdict | RecordSummary> {
  const { checkRecord } = await import('../evidence-record/check-record');
  const checked = await checkRecord({ sha256: sha256(receiptBytes), sha512: sha512(receiptBytes) }, record, {
    certificates: [],
    trustedRoots,
  });
  if (!checked.ok && checked.untrusted)
    return { verdict: 'untrusted_tsa', message: checked.why, ...checked.untrusted };
  if (!checked.ok)
    return {
      verdict: 'timestamp_invalid',
      check: 'record',
      message: checked.why.replace('not for this document', 'not for this receipt'),
    };
  return { ...summaryOf(checked.facts), over: 'receipt' };
}

function summaryOf({
  first,
  renewed,
  holdsUntil,
  expired,
  documentLinkUnchecked,
}: RecordFacts): RecordSummary {
  const lastRenewal = renewed.at(-1);
  return {
    firstTime: first.genTime.toISOString(),
    firstAuthority: first.authority,
    lastRenewal: lastRenewal
      ? { genTime: lastRenewal.genTime.toISOString(), authority: lastRenewal.authority }
      : null,
    renewals: renewed.length,
    holdsUntil: holdsUntil.toISOString(),
    expired,
    ...(documentLinkUnchecked ? { documentLinkUnchecked } : {}),
  };
}
