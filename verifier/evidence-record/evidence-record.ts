import * as asn1js from 'asn1js';
import { der } from '../der';
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

/**
 * The token's message imprint algorithm as the authority encoded it (TSTInfo.messageImprint's
 * AlgorithmIdentifier), or null when the token cannot be read that far.
 */
export function imprintAlgorithmOf(token: Uint8Array): Uint8Array | null {
  const child = (block: asn1js.AsnType | undefined, index: number) =>
    block instanceof asn1js.Constructed ? block.valueBlock.value[index] : undefined;
  const content = asn1js.fromBER(token).result;
  // ContentInfo { contentType, [0] SignedData { version, digestAlgorithms, encapContentInfo { eContentType, [0] OCTET STRING TSTInfo } } }
  const encapsulated = child(child(child(content, 1), 0), 2);
  const wrapped = child(child(encapsulated, 1), 0);
  if (!(wrapped instanceof asn1js.OctetString)) return null;
  const info = asn1js.fromBER(wrapped.getValue()).result;
  const algorithm = child(child(info, 2), 0);
  return algorithm instanceof asn1js.Sequence ? bytesOf(algorithm) : null;
}

/** What a record says; each chain and token as its bytes (a renewal hashes them as they are). */
export interface RecordRead {
  chains: { der: Uint8Array; stamps: { reduced: ReducedHashTree; token: Uint8Array }[] }[];
}

const bytesOf = (block: asn1js.AsnType) => new Uint8Array(block.valueBeforeDecodeView);

const HASH_OIDS: Record<string, TreeHash> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/** The hash of a token's message imprint, when it is one a tree may use. */
export function imprintHashOf(token: Uint8Array): TreeHash | null {
  const algorithm = imprintAlgorithmOf(token);
  const read = algorithm && asn1js.fromBER(algorithm).result;
  const oid = read instanceof asn1js.Sequence ? read.valueBlock.value[0] : undefined;
  return (oid instanceof asn1js.ObjectIdentifier && HASH_OIDS[oid.valueBlock.toString()]) || null;
}

/** Reads a record's archive timestamps, or says why it is not one. */
export function readEvidenceRecord(bytes: Uint8Array): RecordRead | { unreadable: string } {
  const parsed = asn1js.fromBER(bytes);
  if (parsed.offset === -1 || parsed.offset !== bytes.length)
    return { unreadable: 'not a DER evidence record' };
  const record = parsed.result;
  if (!(record instanceof asn1js.Sequence)) return { unreadable: 'not a DER evidence record' };
  const [version, , ...rest] = record.valueBlock.value;
  if (!(version instanceof asn1js.Integer) || version.valueBlock.valueDec !== 1)
    return { unreadable: 'its version is not 1' };
  const sequence = rest.at(-1);
  if (!(sequence instanceof asn1js.Sequence)) return { unreadable: 'it has no archive timestamps' };
  const chains: RecordRead['chains'] = [];
  for (const chain of sequence.valueBlock.value) {
    if (!(chain instanceof asn1js.Sequence) || chain.valueBlock.value.length === 0)
      return { unreadable: 'an archive timestamp chain is empty' };
    const stamps: RecordRead['chains'][number]['stamps'] = [];
    for (const stamp of chain.valueBlock.value) {
      if (!(stamp instanceof asn1js.Sequence))
        return { unreadable: 'an archive timestamp is not a sequence' };
      const fields = stamp.valueBlock.value;
      const token = fields.at(-1);
      if (!(token instanceof asn1js.Sequence)) return { unreadable: 'an archive timestamp has no token' };
      const tree = fields.find((field) => field.idBlock.tagClass === 3 && field.idBlock.tagNumber === 2);
      const reduced: ReducedHashTree = [];
      for (const list of tree instanceof asn1js.Constructed ? tree.valueBlock.value : []) {
        if (!(list instanceof asn1js.Sequence)) return { unreadable: 'a hash list is not a sequence' };
        const hashes = list.valueBlock.value.map((hash) =>
          hash instanceof asn1js.OctetString ? new Uint8Array(hash.valueBlock.valueHexView) : null,
        );
        if (hashes.some((hash) => hash === null)) return { unreadable: 'a hash list holds something else' };
        reduced.push(hashes as Uint8Array[]);
      }
      stamps.push({ reduced, token: bytesOf(token) });
    }
    chains.push({ der: bytesOf(chain), stamps });
  }
  if (chains.length === 0) return { unreadable: 'it has no archive timestamps' };
  return { chains };
}
