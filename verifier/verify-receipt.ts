import { z } from 'zod';
import type { LogFacts, Receipt, ReceiptVerdict, TimeFacts } from '../protocol/receipt';
import { receiptSchema } from '../protocol/receipt';
import { isCanonicalBase64, logKeyFingerprint } from './bytes';
import type { EvidenceFailure } from './sandbox-evidence';
import { SANDBOX_EVIDENCE_FORMAT, verifySandboxEvidence } from './sandbox-evidence';
import type { Ed25519Verify } from './signature';
import { copyRefused, firstCopyMismatch, logFactsOf, statedFactsOf } from './signed-facts';
import { checkReceiptRecord, checkReceiptTimestamp } from './timestamp/receipt-timestamp';
import type { Bound } from '../protocol/limits';
import { LimitExceeded } from '../protocol/limits';
import { plainEnglish } from '../protocol/locales/plain';
import { eventSaid } from '../protocol/vocabulary';

const CHECK_OF: Record<EvidenceFailure, Extract<ReceiptVerdict, { verdict: 'receipt_invalid' }>['check']> = {
  evidence_unreadable: 'format',
  leaf_hash_mismatch: 'leaf',
  asset_hash_mismatch: 'leaf',
  certification_mismatch: 'leaf',
  inclusion_proof_invalid: 'proof',
  tree_head_mismatch: 'root',
  tree_head_signature_invalid: 'signature',
  key_id_mismatch: 'key_id',
};

export interface Trust {
  /** Log keys trusted here, by fingerprint: the key pinned for a profile, or given by the user. */
  logKeys: readonly string[];
  /** Timestamping authorities' root certificates trusted here, by SHA-256 fingerprint of their DER. */
  tsaRoots: readonly string[];
}

/**
 * Checks a document against a receipt, offline, with nothing but the two. A verdict states only
 * what someone signed: the log (its leaf and signed tree head) or a timestamping authority (its
 * token). Every readable copy of a signed fact in the receipt must equal the signed bytes, or the
 * receipt is invalid, naming the field; what nobody signed is returned apart, as stated.
 */
export async function verifyReceipt(
  fileSha256: string,
  receiptJson: unknown,
  trust: Trust,
  verifyEd25519?: Ed25519Verify,
  /** The document's SHA-512, asked for only when its evidence record was renewed to that hash. */
  documentSha512?: () => Promise<Uint8Array>,
): Promise<ReceiptVerdict> {
  const parsed = receiptSchema.safeParse(receiptJson);
  if (!parsed.success) return unreadableReceipt(parsed.error);
  const receipt = parsed.data;
  if (receipt.file.sha256 !== fileSha256.toLowerCase())
    return {
      verdict: 'content_differs',
      message: `This is not the certified file: the receipt is for content with SHA-256 ${receipt.file.sha256} (its name is stated as "${receipt.file.name}"), and this file's content is different.`,
      certified: { file: receipt.file.name, sha256: receipt.file.sha256 },
    };

  if (receipt.certification.state !== 'anchored')
    return {
      verdict: 'not_anchored',
      message: `The receipt matches this file, but it was made before the service anchored the certification (it was ${receipt.certification.state}), so it cannot be checked yet. Once the certification is anchored (usually within minutes), save its receipt or certificate again in Evidence Desk and check that one.`,
    };
  const log = checkLog(receipt, fileSha256, trust, verifyEd25519);
  if ('verdict' in log) return log;
  const time = await checkReceiptTimestamp(receipt, fileSha256, trust.tsaRoots);
  if ('verdict' in time) return time;
  if (receipt.evidence_record && time.facts) {
    const record = await checkReceiptRecord(
      receipt,
      receipt.evidence_record,
      { sha256: fileSha256, ...(documentSha512 ? { sha512: documentSha512 } : {}) },
      trust.tsaRoots,
    );
    if ('verdict' in record) return record;
    time.facts.record = record;
  }
  // DEMO is what was signed: a receipt that says otherwise was edited, like any other copy.
  const signedDemo = log.facts?.demo ? 'the signed leaf' : time.facts?.demo ? 'the timestamp token' : null;
  if (signedDemo && !receipt.demo) return copyRefused({ field: 'demo', signedBy: signedDemo });
  if (log.facts === null && time.facts === null)
    return {
      verdict: 'not_anchored',
      message:
        'The receipt matches this file, but nothing in it is signed in a form that can be checked here: the service’s evidence is in a format this verifier does not know, and there is no independent timestamp.',
    };
  return {
    verdict: 'verified',
    demo: receipt.demo,
    message: verifiedMessage(log.facts, time.facts),
    facts: { log: log.facts, time: time.facts, stated: statedFactsOf(receipt, log.facts !== null) },
  };
}

/** The verdict on JSON that is not a receipt we read: the first few reasons, and a bound by name. */
function unreadableReceipt(error: z.ZodError): ReceiptVerdict {
  const tooBig = error.issues.find((issue) => issue.code === 'too_big');
  if (tooBig) return refusedReceipt(boundOf(tooBig.path));
  const firstFew = new z.ZodError(error.issues.slice(0, 3));
  return {
    verdict: 'receipt_invalid',
    check: 'format',
    message: `This is not an Evidence Desk receipt this version can read: ${z.prettifyError(firstFew)}`,
  };
}

/** Which bound a field too large passed: the chain's length, a token's, the instructions', or a text's. */
function boundOf(path: readonly PropertyKey[]): Bound {
  if (path[0] === 'how_to_verify') return path.length > 1 ? 'textChars' : 'howToLines';
  if (path[0] === 'timestamp' && path[1] === 'chain')
    return path.length > 2 ? 'base64Chars' : 'chainCertificates';
  if (path[0] === 'timestamp' && path[1] === 'token') return 'base64Chars';
  return 'textChars';
}

/** A receipt past one of the bounds (docs/security.md): refused unread, naming the bound. */
export function refusedReceipt(bound: Bound): Extract<ReceiptVerdict, { verdict: 'receipt_invalid' }> {
  return { verdict: 'receipt_invalid', check: 'limit', bound, message: new LimitExceeded(bound).message };
}

type LogOutcome = ReceiptVerdict | { facts: LogFacts | null };

/** The service's evidence: checked where its format is known; null facts where it is not. */
function checkLog(
  receipt: Receipt,
  fileSha256: string,
  trust: Trust,
  verifyEd25519?: Ed25519Verify,
): LogOutcome {
  const evidence = receipt.evidence as { format?: unknown } | null | undefined;
  if (evidence === null || evidence === undefined) return { facts: null };
  if (evidence.format !== SANDBOX_EVIDENCE_FORMAT) return { facts: null };
  const key = receipt.log_key;
  if (!key)
    return {
      verdict: 'receipt_invalid',
      check: 'key_id',
      message: 'The receipt does not include the log key to check it with.',
    };
  if (!isCanonicalBase64(key.public_key) || logKeyFingerprint(key.public_key) !== key.fingerprint)
    return {
      verdict: 'receipt_invalid',
      check: 'key_id',
      message: 'The log key in the receipt does not match its own fingerprint: the receipt was altered.',
    };
  const check = verifySandboxEvidence(evidence, {
    assetHash: fileSha256,
    certificationId: receipt.certification.certification_id ?? undefined,
    logPublicKey: key.public_key,
    verifyEd25519,
  });
  if (!check.verified)
    return {
      verdict: 'receipt_invalid',
      check: CHECK_OF[check.code],
      message: `The receipt was altered or damaged: ${check.message}`,
    };
  const facts = logFactsOf(
    check.leafInput,
    { timestamp: check.treeHeadTimestamp },
    check.leafIndex,
    check.treeSize,
    key.fingerprint,
  );
  const mismatch = firstCopyMismatch(receipt, facts);
  if (mismatch) return copyRefused(mismatch);
  if (!trust.logKeys.includes(key.fingerprint))
    return {
      verdict: 'untrusted_key',
      keyFingerprint: key.fingerprint,
      message: `The receipt is consistent, but it was signed by a log key this computer does not trust (fingerprint ${key.fingerprint}). Compare that fingerprint with the one the service publishes; if they match, check again trusting it.`,
    };
  return { facts };
}

function verifiedMessage(log: LogFacts | null, time: TimeFacts | null): string {
  const parts: string[] = [];
  if (log) {
    const event = log.eventType ? ` for the event “${plainEnglish(eventSaid(log.eventType))}”` : '';
    const certified = log.certifiedAt ? `, certified ${log.certifiedAt}` : '';
    parts.push(
      `This is exactly the certified content${event}${certified}, anchored ${log.anchoredAt} (entry ${log.entry} of ${log.treeSize} in the log, signed by the trusted log key ${log.keyFingerprint.slice(0, 16)}…).`,
    );
  }
  if (time)
    parts.push(
      log
        ? `Time confirmed by ${time.authority} at ${time.genTime} (RFC 3161).`
        : `This content existed at ${time.genTime}, according to ${time.authority} (RFC 3161 timestamp); the service's own evidence cannot be checked here.`,
    );
  else parts.push('No independent timestamp: the time rests on the log alone.');
  return parts.join(' ');
}

/** Each verdict's headline: the first thing the CLI, the app and verify.html say. */
export const VERDICT_HEADLINES: Record<ReceiptVerdict['verdict'], string> = {
  verified: 'Verified: this is the certified document',
  content_differs: 'Not the certified document',
  receipt_invalid: 'The proof does not hold together',
  timestamp_invalid: 'The timestamp does not hold',
  untrusted_key: 'Consistent, but signed by a log key you have not trusted',
  untrusted_tsa: 'Consistent, but timestamped by an authority you have not trusted',
  not_anchored: 'Not verifiable yet: the certification was not anchored',
};

/** Said with every verdict on a sandbox's certification. */
export const DEMO_VERDICT_NOTICE =
  'DEMO: this certification was made on a sandbox. Its cryptography is real, but it carries no legal weight.';
