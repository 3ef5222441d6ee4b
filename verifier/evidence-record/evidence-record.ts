import { bytesToHex, concatBytes } from '../bytes';
import type { Element } from '../der';
import { children, der, elementAt } from '../der';
import type { ReducedHashTree, TreeHash } from './hash-tree';
import { compareBytes } from './hash-tree';

/*
 * RFC 4998 evidence records (DEFINITIONS IMPLICIT TAGS), as far as a record's first archive
 * timestamp: one chain of one ArchiveTimeStamp, whose token's message imprint is the root of the
 * hash tree its reduced tree leads to. Renewals add to the same structures.
 */

const SEQUENCE = 0x30;
const OCTET_STRING = 0x04;
const INTEGER = 0x02;
/** reducedHashtree [2] IMPLICIT SEQUENCE OF PartialHashtree: constructed, context-specific 2. */
const REDUCED_HASHTREE = 0xa2;

/** One archive timestamp: a reduced tree (none for a tree of one) and the token exactly as signed. */
export function archiveTimeStampDer(token: Uint8Array, reduced: ReducedHashTree): Uint8Array {
  const tree = reduced.length
    ? [
        der(
          REDUCED_HASHTREE,
          ...reduced.map((list) => der(SEQUENCE, ...list.map((hash) => der(OCTET_STRING, hash)))),
        ),
      ]
    : [];
  return der(SEQUENCE, ...tree, token);
}

/** A chain of archive timestamps, each renewing the one before with the same hash (§5.2). */
export const chainDer = (stamps: readonly Uint8Array[]): Uint8Array => der(SEQUENCE, ...stamps);

/** Chains of archive timestamps (each a token and its reduced tree), each as DER. */
export const chainsOfStamps = (
  chains: readonly (readonly { token: Uint8Array; reduced: ReducedHashTree }[])[],
): Uint8Array[] =>
  chains.map((stamps) => chainDer(stamps.map((stamp) => archiveTimeStampDer(stamp.token, stamp.reduced))));

/** The ArchiveTimeStampSequence of these chains: what a hash-tree renewal hashes (§5.2). */
export const chainsDer = (chains: readonly Uint8Array[]): Uint8Array => der(SEQUENCE, ...chains);

/**
 * A record of these chains (each DER). `algorithms` are the tokens' own AlgorithmIdentifiers, DER,
 * listed as the record's digest algorithms byte for byte (a verifier may compare encodings).
 */
export function recordDer(chains: readonly Uint8Array[], algorithms: readonly Uint8Array[]): Uint8Array {
  const distinct = algorithms.filter(
    (algorithm, i) => algorithms.findIndex((other) => compareBytes(other, algorithm) === 0) === i,
  );
  return der(SEQUENCE, der(INTEGER, Uint8Array.of(1)), der(SEQUENCE, ...distinct), chainsDer(chains));
}

/**
 * A record for one data object: its reduced tree and the token over the tree's root, exactly as the
 * authority signed it (never re-encoded: a renewal hashes these bytes).
 */
export function evidenceRecord(
  token: Uint8Array,
  reduced: ReducedHashTree,
  imprintAlgorithm: Uint8Array,
): Uint8Array {
  return recordDer([chainDer([archiveTimeStampDer(token, reduced)])], [imprintAlgorithm]);
}

const SEQUENCE_TAG = 0x30;
const OCTET_STRING_TAG = 0x04;
const CONTEXT_0 = 0xa0;
const CONSTRUCTED_OCTET_STRING = 0x24;

/** The element's children, or undefined unless it has the tag asked for (DER read without parsing the rest). */
function childrenOf(bytes: Uint8Array, element: Element | undefined, tag: number): Element[] | undefined {
  return element?.tag === tag ? children(bytes, element) : undefined;
}

/**
 * The token's message imprint as the authority encoded it (TSTInfo.messageImprint: the
 * AlgorithmIdentifier's DER and the hashed message), or null when the token cannot be read that
 * far. Walked, not parsed: a folder of records reads every token's.
 */
function messageImprintOf(token: Uint8Array): { algorithm: Uint8Array; hashed: Uint8Array } | null {
  // ContentInfo { contentType, [0] SignedData { version, digestAlgorithms, encapContentInfo { eContentType, [0] OCTET STRING TSTInfo } } }
  const [, explicit] = childrenOf(token, elementAt(token, 0), SEQUENCE_TAG) ?? [];
  const [signedData] = childrenOf(token, explicit, CONTEXT_0) ?? [];
  const [, , encapsulated] = childrenOf(token, signedData, SEQUENCE_TAG) ?? [];
  const [, wrapper] = childrenOf(token, encapsulated, SEQUENCE_TAG) ?? [];
  const [octets] = childrenOf(token, wrapper, CONTEXT_0) ?? [];
  // BER writers (pkijs among them) may send the OCTET STRING constructed, in pieces.
  const pieces =
    octets?.tag === OCTET_STRING_TAG ? [octets] : (childrenOf(token, octets, CONSTRUCTED_OCTET_STRING) ?? []);
  if (!pieces.length || pieces.some((piece) => piece.tag !== OCTET_STRING_TAG)) return null;
  const info = concatBytes(...pieces.map((piece) => token.subarray(piece.contents, piece.end)));
  // TSTInfo { version, policy, messageImprint { hashAlgorithm, hashedMessage }, ... }
  const [, , imprint] = childrenOf(info, elementAt(info, 0), SEQUENCE_TAG) ?? [];
  const [algorithm, hashed] = childrenOf(info, imprint, SEQUENCE_TAG) ?? [];
  if (algorithm?.tag !== SEQUENCE_TAG || hashed?.tag !== OCTET_STRING_TAG) return null;
  return {
    algorithm: info.slice(algorithm.start, algorithm.end),
    hashed: info.slice(hashed.contents, hashed.end),
  };
}

/** The token's message imprint algorithm (AlgorithmIdentifier, DER), or null when unreadable. */
export const imprintAlgorithmOf = (token: Uint8Array): Uint8Array | null =>
  messageImprintOf(token)?.algorithm ?? null;

/** The hash the token signed (its message imprint), or an empty array when unreadable. */
export const imprintOf = (token: Uint8Array): Uint8Array =>
  messageImprintOf(token)?.hashed ?? new Uint8Array();

/** What a record says; each chain and token as its bytes (a renewal hashes them as they are). */
export interface RecordRead {
  chains: { der: Uint8Array; stamps: { reduced: ReducedHashTree; token: Uint8Array }[] }[];
}

/** DER of the hash algorithms a tree may use: OBJECT IDENTIFIER content octets. */
const HASH_OIDS: [TreeHash, string][] = [
  ['sha256', '608648016503040201'],
  ['sha512', '608648016503040203'],
];

/** The hash of a token's message imprint, when it is one a tree may use. */
export function imprintHashOf(token: Uint8Array): TreeHash | null {
  const algorithm = imprintAlgorithmOf(token);
  const [oid] = algorithm ? (childrenOf(algorithm, elementAt(algorithm, 0), SEQUENCE_TAG) ?? []) : [];
  if (!algorithm || oid?.tag !== 0x06) return null;
  const hex = bytesToHex(algorithm.subarray(oid.contents, oid.end));
  return HASH_OIDS.find(([, known]) => known === hex)?.[0] ?? null;
}

/** Reads a record's archive timestamps, or says why it is not one. */
export function readEvidenceRecord(bytes: Uint8Array): RecordRead | { unreadable: string } {
  const top = elementAt(bytes, 0);
  if (top?.tag !== SEQUENCE_TAG || top.end !== bytes.length)
    return { unreadable: 'not a DER evidence record' };
  const fields = children(bytes, top);
  if (!fields) return { unreadable: 'not a DER evidence record' };
  const [version] = fields;
  if (version?.tag !== 0x02 || version.end - version.contents !== 1 || bytes[version.contents] !== 1)
    return { unreadable: 'its version is not 1' };
  const sequence = fields.at(-1);
  const chainElements = fields.length >= 3 ? childrenOf(bytes, sequence, SEQUENCE_TAG) : undefined;
  if (!chainElements?.length) return { unreadable: 'it has no archive timestamps' };
  const chains: RecordRead['chains'] = [];
  for (const chain of chainElements) {
    const stampElements = childrenOf(bytes, chain, SEQUENCE_TAG);
    if (!stampElements?.length) return { unreadable: 'an archive timestamp chain is empty' };
    const stamps: RecordRead['chains'][number]['stamps'] = [];
    for (const stamp of stampElements) {
      const parts = childrenOf(bytes, stamp, SEQUENCE_TAG);
      if (!parts) return { unreadable: 'an archive timestamp is not a sequence' };
      const token = parts.at(-1);
      if (token?.tag !== SEQUENCE_TAG) return { unreadable: 'an archive timestamp has no token' };
      const reduced: ReducedHashTree = [];
      const tree = parts.find((part) => part.tag === REDUCED_HASHTREE);
      for (const list of tree ? (children(bytes, tree) ?? []) : []) {
        const hashes = childrenOf(bytes, list, SEQUENCE_TAG);
        if (!hashes) return { unreadable: 'a hash list is not a sequence' };
        if (hashes.some((hash) => hash.tag !== OCTET_STRING_TAG))
          return { unreadable: 'a hash list holds something else' };
        reduced.push(hashes.map((hash) => bytes.slice(hash.contents, hash.end)));
      }
      stamps.push({ reduced, token: bytes.slice(token.start, token.end) });
    }
    chains.push({ der: bytes.slice(chain.start, chain.end), stamps });
  }
  return { chains };
}
