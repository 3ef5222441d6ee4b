import { RECEIPT_FORMAT } from '../../protocol/receipt';
import type { MerkleStep, Receipt, ReceiptTimestamp } from '../../protocol/receipt';
import type { ConfirmedTimestamp } from '../store';
import { utcIso } from '../../protocol/time-format';
import type { CertificationRow, ProfileSummary } from '../../protocol/views';
import { bytesToBase64, hexToBytes, logKeyFingerprint } from '../../verifier/bytes';
import type { RecordParts } from './records/evidence-record-of';
import { evidenceRecordOf, renewalsIn } from './records/evidence-record-of';
import { SANDBOX_EVIDENCE_FORMAT, loggedTimes, signedBySandbox } from '../../verifier/sandbox-evidence';
import { inEnglish } from '../../protocol/locales';

export interface ReceiptContext {
  environment: ProfileSummary & { baseUrl: string | null };
  /** The log key pinned for the certification's environment (base64 SPKI DER), when there is one. */
  logPublicKey: string | null;
  /** The confirmed RFC 3161 timestamp of the row's batch, when there is one. */
  timestamp: ConfirmedTimestamp | null;
  /** The parts of the row's evidence record, when its batch was timestamped over an RFC 4998 tree. */
  record?: RecordParts | null;
}

const DEMO_NOTICE =
  'DEMO — this certification was made on a sandbox. Its cryptography is real, but it carries no legal weight.';

/** A certification as a receipt anyone can check (docs/evidence.md). */
export function buildReceipt(row: CertificationRow, context: ReceiptContext): Receipt {
  const evidence = row.evidence ?? null;
  const knownFormat = (evidence as { format?: unknown } | null)?.format === SANDBOX_EVIDENCE_FORMAT;
  const verifiable = row.state === 'anchored' && knownFormat && context.logPublicKey !== null;
  // v2 receipts copy the times someone signed, to the millisecond they were signed with: the
  // leaf's certified_at and the tree head's time. The computer's own clock is kept apart, as queued_at.
  const signed = loggedTimes(evidence);
  // DEMO when the profile is a sandbox, or when the log signed that it is one (whatever the profile says).
  const demo = context.environment.demo || signedBySandbox(evidence);
  const timestamp = receiptTimestamp(
    row,
    context.timestamp,
    context.record ? renewalsIn(context.record) : undefined,
  );
  return {
    format: RECEIPT_FORMAT,
    demo,
    notice: demo ? DEMO_NOTICE : null,
    file: { name: row.fileName, size: row.fileSize, sha256: row.assetHash },
    certification: {
      asset_type: row.assetType,
      source_system: row.sourceSystem,
      event_type: row.eventType,
      matter: row.matter,
      certified_by: {
        user: row.certifiedBy,
        computer: row.certifiedOn,
        ...(row.certifierName ? { name: row.certifierName } : {}),
        ...(row.certifierFirm ? { firm: row.certifierFirm } : {}),
      },
      certified_at: signed.certifiedAt ?? utcIso(row.createdAt),
      queued_at: utcIso(row.createdAt),
      request_id: row.requestId,
      certification_id: row.serviceId,
      state: row.state,
      service_state: row.serviceState,
      anchored_at: signed.treeHeadAt ?? (row.anchoredAt === null ? null : utcIso(row.anchoredAt)),
    },
    environment: {
      kind: context.environment.kind,
      profile: context.environment.id,
      base_url: context.environment.baseUrl,
    },
    verifiable,
    status: statusOf(row, knownFormat, context.logPublicKey !== null),
    verification:
      row.verification === null
        ? null
        : {
            result: row.verification,
            // A receipt is read by people without Evidence Desk: its sentences are in English.
            message: row.verificationMessage && inEnglish(row.verificationMessage),
          },
    evidence,
    log_key:
      context.logPublicKey === null
        ? null
        : {
            algorithm: 'Ed25519',
            public_key: context.logPublicKey,
            fingerprint: logKeyFingerprint(context.logPublicKey),
          },
    timestamp,
    evidence_record: receiptRecord(row, context),
    how_to_verify: verifiable ? [...HOW_TO_VERIFY, ...howToVerifyTime(timestamp)] : [],
  };
}

/** A receipt as files carry it (kits, Save receipt, beside the document, inside a certificate): the same bytes everywhere. */
export const receiptText = (receipt: Receipt): string => `${JSON.stringify(receipt, null, 2)}\n`;

function receiptTimestamp(
  row: CertificationRow,
  stamp: ConfirmedTimestamp | null,
  renewals: RecordParts['renewals'] | undefined,
): ReceiptTimestamp | null {
  if (!stamp || row.timestampPath === null) return null;
  const way = JSON.parse(row.timestampPath) as MerkleStep[] | string[][];
  return {
    authority: stamp.authority,
    gen_time: new Date(stamp.genTime).toISOString(),
    url: stamp.tsaUrl,
    root: stamp.root,
    ...(stamp.tree === 'rfc4998' ? { path: [], reduced: way as string[][] } : { path: way as MerkleStep[] }),
    token: stamp.token,
    chain: stamp.chain,
    validation: stamp.validation,
    ...(renewals?.length
      ? {
          renewals: renewals.map((renewal) => ({
            gen_time: new Date(renewal.genTime).toISOString(),
            authority: renewal.authority,
          })),
        }
      : {}),
  };
}

/** The row's evidence record, base64, when its batch was timestamped over an RFC 4998 tree. */
function receiptRecord(row: CertificationRow, context: ReceiptContext): string | null {
  if (context.timestamp?.tree !== 'rfc4998' || !context.record || row.timestampPath === null) return null;
  const reduced = (JSON.parse(row.timestampPath) as string[][]).map((list) => list.map(hexToBytes));
  const record = evidenceRecordOf(context.record, reduced);
  return record && bytesToBase64(record);
}

function statusOf(row: CertificationRow, knownFormat: boolean, haveKey: boolean): string {
  if (row.state !== 'anchored')
    return `Not yet verifiable: the certification is ${row.state === 'failed' ? 'failed' : 'still on its way'} (${row.state}). A receipt saved once it is anchored can be checked.`;
  if (!knownFormat)
    return 'Anchored, but its evidence is in a format this receipt cannot explain; it is included exactly as received.';
  if (!haveKey)
    return 'Anchored, but the log key needed to check it was not available when this receipt was made.';
  return 'Anchored: recorded in the service’s tamper-evident log; from now on anyone can check it.';
}

const HOW_TO_VERIFY = [
  'Compute the SHA-256 of the document and compare it with file.sha256 (sha256sum FILE, or certutil -hashfile FILE SHA256).',
  'Compute SHA-256(0x00 ‖ evidence.leaf_input as UTF-8) and compare it with evidence.leaf_hash; read asset_hash from leaf_input and compare it with the document’s hash.',
  'Recompute the Merkle root from leaf_hash, evidence.leaf_index, evidence.tree_size and evidence.inclusion_proof (RFC 9162 §2.1.3.2, nodes SHA-256(0x01 ‖ left ‖ right)) and compare it with evidence.root_hash.',
  'Check that evidence.signed_tree_head names the same tree_size and root_hash, and that log_key.fingerprint = SHA-256 of the base64-decoded log_key.public_key (and equals evidence.log_key_id when present).',
  'Verify the Ed25519 signature evidence.signed_tree_head.signature over 0x00 ‖ 0x01 ‖ uint64 timestamp ‖ uint64 tree_size ‖ root (RFC 6962 §3.5) with log_key.public_key.',
  'Compare log_key.fingerprint with the fingerprint the service publishes: a matching key means the log, not this receipt, vouches for the certification.',
];

/** The independent time's steps (RFC 3161, and RFC 4998 for a batch timestamped over its hash tree). */
function howToVerifyTime(timestamp: ReceiptTimestamp | null): string[] {
  if (!timestamp) return [];
  return [...(timestamp.reduced ? HOW_TO_VERIFY_RECORD : HOW_TO_VERIFY_PATH), ...HOW_TO_VERIFY_TIME];
}

const HOW_TO_VERIFY_PATH = [
  'Fold timestamp.path from SHA-256(0x00 ‖ document’s SHA-256) upwards (each step SHA-256(0x01 ‖ left ‖ right), the sibling on its side) and compare the result with timestamp.root.',
  'Check timestamp.token (base64, an RFC 3161 TimeStampToken) over timestamp.root with the authority’s certificates in timestamp.chain: openssl ts -verify -data ROOT.bin -in TOKEN.tsr -token_in -CAfile ROOT.pem -untrusted CHAIN.pem answers "Verification: OK".',
];

const HOW_TO_VERIFY_RECORD = [
  'evidence_record (base64; the kit’s NAME.ers) is an RFC 4998 evidence record: any RFC 4998 verifier (for example Bouncy Castle’s org.bouncycastle.tsp.ers) checks it against the document itself, its renewals included.',
  'By hand: the first list of timestamp.reduced holds the document’s SHA-256 (and its neighbour’s); each node is SHA-256 of its list’s hashes, with the node from below from the second list on, sorted in binary ascending order and concatenated (a first list of one hash is passed up as it is); the last node is timestamp.root.',
  'Check timestamp.token (base64, an RFC 3161 TimeStampToken) whose message imprint is timestamp.root itself: openssl ts -verify -digest ROOT_HEX -in TOKEN.tsr -token_in -CAfile ROOT.pem -untrusted CHAIN.pem answers "Verification: OK".',
];

const HOW_TO_VERIFY_TIME = [
  'Compare the fingerprint of the last certificate in timestamp.chain (SHA-256 of its DER) with the one the authority publishes; the token’s genTime is timestamp.gen_time.',
  'Check that the authority was in good standing at that time, from what its issuers signed (timestamp.validation, base64 DER): openssl ocsp -respin OCSP.der -issuer ISSUER.pem -cert SIGNER.pem -CAfile ROOT.pem shows "good" (or revoked after gen_time, not for keyCompromise), with This Update after gen_time or Next Update after it; or openssl crl -inform DER -in CRL.der -CAfile ROOT.pem -noout answers "verify OK" and the signer’s serial is not listed before gen_time.',
];
