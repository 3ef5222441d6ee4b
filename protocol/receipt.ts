import { z } from 'zod';
import { PROFILE_KINDS } from './profiles';
import { LOCAL_STATES } from './states';
import type { Bound } from './limits';
import { LIMITS } from './limits';

/**
 * A receipt: one certification, self-contained and versioned, so that it can be checked on any
 * computer, offline, without Evidence Desk's queue (docs/evidence.md). The CLI's verifier and
 * `verify.html` read it with this schema.
 */
export const RECEIPT_FORMAT = 'evidence-desk-receipt/v4';
/** Receipts handed out before v2: their dates are the certifying computer's clock, and they keep verifying. */
export const RECEIPT_V1 = 'evidence-desk-receipt/v1' as const;
/** v2 receipts carry a timestamp without its validation data (v3's `timestamp.validation`), and keep verifying. */
export const RECEIPT_V2 = 'evidence-desk-receipt/v2' as const;
/** v3 receipts' timestamps are over an RFC 6962 tree of their batch, without an evidence record. */
export const RECEIPT_V3 = 'evidence-desk-receipt/v3' as const;
export const RECEIPT_FORMATS = [RECEIPT_V1, RECEIPT_V2, RECEIPT_V3, RECEIPT_FORMAT] as const;

/**
 * How a sandbox marks what it signs as DEMO (docs/api.md): its log's leaves say `"environment":
 * "sandbox"`, its timestamping authority signs under this policy. A receipt's own `demo` flag is
 * nobody's signature: it may add DEMO, never take it away.
 */
export const SANDBOX_LEAF_ENVIRONMENT = 'sandbox';
export const SANDBOX_TSA_POLICY = '1.3.6.1.4.1.58888.1.1';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hash in lower-case hex');
const isoTime = z.string().datetime({ offset: true });

// Every text and list is bounded (docs/security.md): a receipt comes from the other side.
const text = z.string().max(LIMITS.textChars);
const base64 = z
  .string()
  .max(LIMITS.base64Chars)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');

/** One step from a hash to the batch root: the sibling, and on which side it stands. */
export const merkleStepSchema = z.object({ side: z.enum(['left', 'right']), hash: sha256Hex });
export type MerkleStep = z.infer<typeof merkleStepSchema>;

export const timestampSchema = z.object({
  /** Copies of what the token signed: the authority's name (its certificate's subject) and genTime. */
  authority: text,
  gen_time: isoTime,
  /** Where it was asked for; stated, not signed. */
  url: text,
  /**
   * The root over the batch's SHA-256s. v4: an RFC 4998 hash tree's, itself the token's imprint;
   * before (and v4 receipts of batches made before), an RFC 6962 tree's, whose SHA-256 is.
   */
  root: sha256Hex,
  /** RFC 6962 trees: from leaf SHA-256(0x00 ‖ file SHA-256) to the root: node = SHA-256(0x01 ‖ left ‖ right). Empty for an RFC 4998 tree. */
  path: z.array(merkleStepSchema).max(64),
  /**
   * v4, RFC 4998 trees: the reduced hash tree from the file's SHA-256 to the root, lists of hex
   * hashes (a node is SHA-256 of its children sorted and concatenated), as in the evidence record.
   */
  reduced: z.array(z.array(sha256Hex).min(1).max(2)).max(64).optional(),
  /**
   * v4: copies of what each renewal of the evidence record signed (its time and authority), oldest
   * first, as the record itself carries them; a verifier refuses copies that differ.
   */
  renewals: z
    .array(z.object({ gen_time: isoTime, authority: text }))
    .max(LIMITS.chainCertificates)
    .optional(),
  /** The TimeStampToken (CMS ContentInfo), DER, base64. */
  token: base64,
  /** The authority's certificates, signer first, DER, base64. */
  chain: z.array(base64).max(LIMITS.chainCertificates),
  /**
   * v3: what the issuers of the chain's certificates signed about them, collected when the token
   * came (OCSP responses, else CRLs; DER, base64): the token checks as of its genTime, offline,
   * after those certificates expire. Null while not collected yet.
   */
  validation: z
    .object({
      ocsp: z.array(base64).max(LIMITS.chainCertificates),
      crl: z.array(base64).max(LIMITS.chainCertificates),
    })
    .nullable()
    .optional(),
});
export type ReceiptTimestamp = z.infer<typeof timestampSchema>;

export const receiptSchema = z.object({
  format: z.enum(RECEIPT_FORMATS),
  /** Made on a sandbox: real cryptography, no legal weight. */
  demo: z.boolean(),
  notice: text.nullable(),
  file: z.object({ name: text, size: z.number().int().nonnegative(), sha256: sha256Hex }),
  certification: z.object({
    asset_type: text,
    source_system: text,
    event_type: text,
    matter: text.nullable(),
    certified_by: z.object({
      user: text.nullable(),
      computer: text.nullable(),
      /** v2, optional: the person's name and firm, as written once in Settings. */
      name: text.nullable().optional(),
      firm: text.nullable().optional(),
    }),
    /** v2: the time the log signed in the leaf (the computer's clock only when nothing signed one). */
    certified_at: isoTime,
    /** v2: when this computer queued it, by its own clock; stated, never signed. */
    queued_at: isoTime.optional(),
    request_id: text,
    certification_id: text.nullable(),
    state: z.enum(LOCAL_STATES),
    service_state: text.nullable(),
    /** v2: the signed tree head's time. */
    anchored_at: isoTime.nullable(),
  }),
  environment: z.object({
    kind: z.enum(PROFILE_KINDS),
    profile: text,
    base_url: text.nullable(),
  }),
  /** True only for an anchored certification whose evidence format is known and whose log key is included. */
  verifiable: z.boolean(),
  status: text,
  /** What Evidence Desk concluded when it checked the evidence, before making this receipt. */
  verification: z
    .object({ result: z.enum(['verified', 'invalid', 'unverifiable']), message: text.nullable() })
    .nullable(),
  /** The evidence exactly as the service sent it. */
  evidence: z.unknown(),
  log_key: z
    .object({
      algorithm: z.literal('Ed25519'),
      /** SubjectPublicKeyInfo DER, base64. */
      public_key: text,
      /** SHA-256 of that DER, hex: compare it with the fingerprint the service publishes. */
      fingerprint: sha256Hex,
    })
    .nullable(),
  /** v2: the independent RFC 3161 timestamp of the batch this certification was queued in. */
  timestamp: timestampSchema.nullable().optional(),
  /**
   * v4: the document's RFC 4998 evidence record (DER, base64; the kit's `.ers`): the batch's
   * timestamp as its first archive timestamp, then each renewal. Null while there is none.
   */
  evidence_record: base64.nullable().optional(),
  how_to_verify: z.array(text).max(LIMITS.howToLines),
});

export type Receipt = z.infer<typeof receiptSchema>;

/** What the log signed about a certification: its leaf's fields and its tree head's time. */
export interface LogFacts {
  certificationId: string | null;
  assetType: string | null;
  sourceSystem: string | null;
  eventType: string | null;
  /** ISO 8601 UTC, as the service wrote it into the leaf; null when its leaf carries no time. */
  certifiedAt: string | null;
  /** The signed tree head's timestamp, ISO 8601 UTC. */
  anchoredAt: string;
  entry: number;
  treeSize: number;
  keyFingerprint: string;
  /** The leaf says it was made on a sandbox. */
  demo: boolean;
}

/** What a timestamping authority signed: that the batch root (so this file's hash) existed at genTime. */
export interface TimeFacts {
  authority: string;
  genTime: string;
  /** SHA-256 of the trusted root certificate the authority's chain leads to. */
  rootFingerprint: string;
  /** The token was signed under a sandbox's DEMO policy. */
  demo: boolean;
  /** What the validation data kept with the token shows of the authority's standing at genTime. */
  standing: AuthorityStanding;
  /** v4: what the document's RFC 4998 evidence record proves, when the receipt carries one. */
  record?: RecordSummary;
}

/** What an RFC 4998 evidence record proves: its first time, its last renewal, until when it holds. */
export interface RecordSummary {
  firstTime: string;
  firstAuthority: string;
  /** The newest renewal (ISO 8601 UTC and authority), or null when never renewed. */
  lastRenewal: { genTime: string; authority: string } | null;
  renewals: number;
  /** When the newest archive timestamp's certificates expire: a renewal is due before. */
  holdsUntil: string;
  /** Past `holdsUntil` without a renewal: needs attention, not proven as of today. */
  expired: boolean;
  /**
   * Renewed to SHA-512, checked without the document's bytes (a set is hashed with SHA-256 only):
   * every timestamp holds, but not that the renewal covers this very document.
   */
  documentLinkUnchecked?: true;
  /**
   * The record's data object is the receipt (a receipt made before records, its record beside it):
   * it keeps the receipt's own timestamp checkable, from `firstTime` on.
   */
  over?: 'receipt';
}

/** Why a timestamp's validation data does not show its authority in good standing at genTime. */
export const STANDING_GAPS = [
  'not_kept',
  'missing',
  'unknown',
  'not_at_that_time',
  'unreadable',
  'not_successful',
  'other_certificate',
  'bad_signature',
  'unauthorised_responder',
  'other_issuer',
] as const;
export type StandingGap = (typeof STANDING_GAPS)[number];

export type AuthorityStanding =
  /** Its issuers said so (OCSP, CRL), then or later; `revokedLater` when revoked after, not for compromise. */
  | { shown: true; sources: ('ocsp' | 'crl')[]; revokedLater: string | null }
  /** Nothing kept shows it: the time holds while the authority's certificate does. */
  | { shown: false; why: StandingGap; certificate: string | null };

/** What nobody signed: shown apart, as stated by whoever made the receipt. */
export interface StatedFacts {
  fileName: string;
  matter: string | null;
  certifiedBy: string | null;
  computer: string | null;
  /** The person, as they wrote their name and firm ("Jane Doe, Smith & Partners"); null when not given. */
  person: string | null;
  /** The certifying computer's clock (v1 receipts, or evidence nobody here can check), not a signature. */
  computerClock: { certifiedAt: string; anchoredAt: string | null } | null;
}

export interface VerdictFacts {
  /** Null when the service's evidence is in a format that cannot be checked here. */
  log: LogFacts | null;
  /** Null when the receipt carries no independent timestamp. */
  time: TimeFacts | null;
  stated: StatedFacts;
}

/** The checks an RFC 3161 timestamp must pass; a failing one is named in the verdict. */
export const TIMESTAMP_CHECKS = [
  'format',
  'status',
  'path',
  'imprint',
  'nonce',
  'signature',
  'usage',
  'signer_binding',
  'validity',
  'chain',
  'revoked',
  'record',
] as const;
export type TimestampCheck = (typeof TIMESTAMP_CHECKS)[number];

/** What a verification concludes, in the words of docs/evidence.md. Exit 0 only for `verified`. */
export type ReceiptVerdict =
  | {
      verdict: 'verified';
      message: string;
      demo: boolean;
      facts: VerdictFacts;
    }
  | {
      verdict: 'content_differs';
      message: string;
      certified: { file: string; sha256: string };
    }
  | {
      verdict: 'receipt_invalid';
      check: 'format' | 'leaf' | 'proof' | 'root' | 'signature' | 'key_id' | 'copy' | 'limit' | 'ambiguous';
      /** For `copy`: the receipt field that differs from the signed bytes. */
      field?: string;
      /** For `limit`: the bound the receipt passed, unread beyond it (protocol/limits.ts). */
      bound?: Bound;
      message: string;
    }
  | { verdict: 'timestamp_invalid'; check: TimestampCheck; message: string }
  | { verdict: 'untrusted_key'; message: string; keyFingerprint: string }
  | { verdict: 'untrusted_tsa'; message: string; rootFingerprint: string; authority: string }
  | { verdict: 'not_anchored'; message: string };

/** What a certificate PDF's own seal (its document timestamp) says, apart from its receipt's verdict. */
export type SealVerdict =
  | { state: 'unsealed' }
  | {
      state: 'sealed';
      authority: string;
      genTime: string;
      /** The authority's standing at the seal's time, from what its issuers signed (the PDF's DSS). */
      standing?: AuthorityStanding;
    }
  | { state: 'untrusted'; authority: string; rootFingerprint: string }
  /** The PDF was changed after sealing: bytes added, or the covered bytes or token altered. */
  | { state: 'broken' };
