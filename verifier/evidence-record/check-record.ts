import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { SANDBOX_TSA_POLICY } from '../../protocol/receipt';
import { bytesToHex, concatBytes } from '../bytes';
import { chainStandingAt } from '../timestamp/chain-standing';
import type { TokenCheck } from '../timestamp/token';
import type { ChainTrust } from '../timestamp/token-chain';
import { certificateOf } from '../timestamp/token-certificates';
import type { TreeHash } from './hash-tree';
import { rootFrom } from './hash-tree';
import type { RecordRead } from './evidence-record';
import { chainsDer, imprintHashOf, imprintOf, readEvidenceRecord } from './evidence-record';
import { validationDataIn } from './token-validation';

/*
 * An evidence record's check (RFC 4998 §5.3): the first archive timestamp covers the document, each
 * later one covers the one before (timestamp renewal) or the document and every chain before (hash-tree
 * renewal); each token holds, chains to a trusted root, was in good standing at its own time from the
 * validation data inside it, and was still valid when the next one was made. Pure JavaScript: verify.html runs it.
 */

const HASHES = { sha256, sha512 } as const;

/** An archive timestamp as the verdict names it. */
export interface ProvenTime {
  genTime: Date;
  authority: string;
}

export interface RecordFacts {
  /** The first time proven: the document existed then. */
  first: ProvenTime;
  /** Each renewal, oldest first (none when the record was never renewed). */
  renewed: ProvenTime[];
  /** When the newest archive timestamp's certificates stop being valid: a renewal is due before. */
  holdsUntil: Date;
  /** Past `holdsUntil` without a renewal: needs attention, not valid today. */
  expired: boolean;
  /** A token was signed under a sandbox's DEMO policy. */
  demo: boolean;
  /**
   * The record was renewed to SHA-512 and only the document's SHA-256 was at hand: every token
   * was checked, but not that the renewal covers this document (checking that needs its bytes).
   */
  documentLinkUnchecked?: true;
}

export type RecordCheck =
  | { ok: true; facts: RecordFacts }
  | { ok: false; why: string; untrusted?: { rootFingerprint: string; authority: string } };

/**
 * The document as a record may need it: its SHA-256, and its SHA-512 once a record was renewed to
 * that hash (asked for only then: a set of documents is hashed once, with SHA-256).
 */
export interface RecordDocument {
  sha256: Uint8Array;
  sha512?: Uint8Array | (() => Promise<Uint8Array>);
}

const when = (time: Date) => time.toISOString();

/** Checks `bytes` as an evidence record of `document` as of `now`. */
export async function checkRecord(
  document: RecordDocument,
  bytes: Uint8Array,
  trust: ChainTrust,
  now: Date = new Date(),
): Promise<RecordCheck> {
  const read = readEvidenceRecord(bytes);
  if ('unreadable' in read)
    return { ok: false, why: `The evidence record cannot be read: ${read.unreadable}.` };
  const proven: ProvenTime[] = [];
  let demo = false;
  let documentLinkUnchecked = false;
  const documentSha512 =
    typeof document.sha512 === 'function' ? await sha512Once(read, document.sha512) : document.sha512;
  // The previous archive timestamp's certificates, which must still be valid when the next was made.
  let previousValidUntil: Date | null = null;
  for (const [chainIndex, chain] of read.chains.entries()) {
    const algorithm = imprintHashOf(chain.stamps[0]?.token ?? new Uint8Array());
    if (!algorithm) return { ok: false, why: 'The evidence record uses a hash this verifier does not know.' };
    for (const [stampIndex, stamp] of chain.stamps.entries()) {
      if (imprintHashOf(stamp.token) !== algorithm)
        return { ok: false, why: 'An archive timestamp uses another hash than the rest of its chain.' };
      const covered = coveredHash(
        { sha256: document.sha256, ...(documentSha512 ? { sha512: documentSha512 } : {}) },
        read.chains,
        chainIndex,
        stampIndex,
        algorithm,
      );
      if ('why' in covered) return { ok: false, why: covered.why };
      documentLinkUnchecked ||= 'unchecked' in covered;
      const root =
        'unchecked' in covered ? imprintOf(stamp.token) : rootFrom(covered.hash, stamp.reduced, algorithm);
      if (!root)
        return {
          ok: false,
          why:
            chainIndex === 0 && stampIndex === 0
              ? 'The evidence record is not for this document (its hash is not in the record).'
              : `Archive timestamp ${proven.length + 1} of the evidence record does not cover the one before it.`,
        };
      const inside = validationDataIn(stamp.token);
      const { checked, standing } = await tokenCheckedOnce(stamp.token, root, algorithm, trust, inside);
      if (!checked.ok && checked.check === 'untrusted')
        return {
          ok: false,
          why: checked.message,
          untrusted: { rootFingerprint: checked.rootFingerprint, authority: checked.authority },
        };
      if (!checked.ok)
        return {
          ok: false,
          why:
            checked.check === 'imprint'
              ? `The evidence record's timestamp is over another root than ${bytesToHex(root).slice(0, 16)}…, the one this document leads to.`
              : checked.message,
        };
      const at = checked.genTime;
      if (previousValidUntil && at > previousValidUntil)
        return {
          ok: false,
          why: `The evidence record was renewed on ${when(at)}, after the certificate of the timestamp before it had expired (${when(previousValidUntil)}): the renewal came too late to carry it.`,
        };
      if (proven.length && at < (proven.at(-1) as ProvenTime).genTime)
        return {
          ok: false,
          why: 'The evidence record’s archive timestamps are not in the order they were made.',
        };
      if (standing?.revoked)
        return {
          ok: false,
          why: `The certificate of ${standing.certificate} was revoked on ${standing.revokedAt}${standing.compromise ? ' because its key was compromised' : ', before it signed an archive timestamp of this record'}.`,
        };
      previousValidUntil = validUntil(checked.chain);
      demo ||= checked.policy === SANDBOX_TSA_POLICY;
      proven.push({ genTime: at, authority: checked.authority });
    }
  }
  const holdsUntil = previousValidUntil as Date;
  return {
    ok: true,
    facts: {
      first: proven[0] as ProvenTime,
      renewed: proven.slice(1),
      holdsUntil,
      expired: now > holdsUntil,
      demo,
      ...(documentLinkUnchecked ? { documentLinkUnchecked: true as const } : {}),
    },
  };
}

/** The document's SHA-512, computed only when a chain of the record uses it. */
async function sha512Once(
  read: RecordRead,
  compute: () => Promise<Uint8Array>,
): Promise<Uint8Array | undefined> {
  const needed = read.chains.some(
    (chain) => imprintHashOf(chain.stamps[0]?.token ?? new Uint8Array()) === 'sha512',
  );
  return needed ? compute() : undefined;
}

// The documents of a batch share their record's tokens (and their renewals' tokens): a folder of
// 10,000 records from one batch checks each token once. The answer depends only on these inputs.
type TokenOutcome = {
  checked: TokenCheck;
  standing: Awaited<ReturnType<typeof chainStandingAt>> | null;
};
const checkedTokens = new Map<string, Promise<TokenOutcome>>();
const TOKENS_KEPT = 256;

function tokenCheckedOnce(
  token: Uint8Array,
  root: Uint8Array,
  algorithm: TreeHash,
  trust: ChainTrust,
  inside: ReturnType<typeof validationDataIn>,
): Promise<TokenOutcome> {
  const key = [
    bytesToHex(sha256(token)),
    bytesToHex(root),
    algorithm,
    trust.certificates.map((der) => bytesToHex(sha256(der))).join(','),
    [...trust.trustedRoots].sort().join(','),
  ].join('|');
  let outcome = checkedTokens.get(key);
  if (!outcome) {
    if (checkedTokens.size >= TOKENS_KEPT) checkedTokens.delete(checkedTokens.keys().next().value as string);
    outcome = (async () => {
      const { checkTimestampToken } = await import('../timestamp/token');
      const checked = await checkTimestampToken(token, {
        certificates: [...trust.certificates, ...inside.certificates],
        trustedRoots: trust.trustedRoots,
        data: root,
        dataSha256: root,
        imprintIsDigest: true,
        imprintAlgorithm: algorithm,
      });
      return {
        checked,
        standing: checked.ok ? await chainStandingAt(checked.chain, inside.data, checked.genTime) : null,
      };
    })();
    checkedTokens.set(key, outcome);
  }
  return outcome;
}

/** The earliest end of validity among a chain's certificates (its root included). */
function validUntil(chain: readonly Uint8Array[]): Date {
  return new Date(Math.min(...chain.map((der) => certificateOf(der).notAfter.value.getTime())));
}

/**
 * What an archive timestamp must cover (§5.3): the document for a record's first; the previous
 * token, as stored, within a chain; for a chain that renewed the hash tree, the document's hash
 * with that chain's hash, concatenated with the hash of every chain before.
 */
function coveredHash(
  document: { sha256: Uint8Array; sha512?: Uint8Array },
  chains: readonly { der: Uint8Array; stamps: readonly { token: Uint8Array }[] }[],
  chainIndex: number,
  stampIndex: number,
  algorithm: TreeHash,
): { hash: Uint8Array } | { unchecked: true } | { why: string } {
  const hash = HASHES[algorithm];
  const previous = chains[chainIndex]?.stamps[stampIndex - 1];
  if (previous) return { hash: hash(previous.token) };
  const own = algorithm === 'sha256' ? document.sha256 : document.sha512;
  // A record's first chain must be tied to the document: only a later chain's link may go unchecked.
  if (!own && chainIndex === 0)
    return {
      why: 'The evidence record is not for this document (its first timestamp is over another hash).',
    };
  if (!own) return { unchecked: true };
  if (chainIndex === 0) return { hash: own };
  const before = chainsDer(chains.slice(0, chainIndex).map((chain) => chain.der));
  return { hash: hash(concatBytes(own, hash(before))) };
}
