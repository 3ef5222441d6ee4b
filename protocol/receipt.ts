import { z } from 'zod';
import { PROFILE_KINDS } from './profiles';
import { LOCAL_STATES } from './states';

/**
 * A receipt: one certification, self-contained and versioned, so that it can be checked on any
 * computer, offline, without Evidence Desk's queue (docs/evidence.md). The CLI's verifier and
 * `verify.html` read it with this schema.
 */
export const RECEIPT_FORMAT = 'evidence-desk-receipt/v1';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hash in lower-case hex');
const isoTime = z.string().datetime({ offset: true });

export const receiptSchema = z.object({
  format: z.literal(RECEIPT_FORMAT),
  /** Made on a sandbox: real cryptography, no legal weight. */
  demo: z.boolean(),
  notice: z.string().nullable(),
  file: z.object({ name: z.string(), size: z.number().int().nonnegative(), sha256: sha256Hex }),
  certification: z.object({
    asset_type: z.string(),
    source_system: z.string(),
    event_type: z.string(),
    matter: z.string().nullable(),
    certified_by: z.object({ user: z.string().nullable(), computer: z.string().nullable() }),
    certified_at: isoTime,
    request_id: z.string(),
    certification_id: z.string().nullable(),
    state: z.enum(LOCAL_STATES),
    service_state: z.string().nullable(),
    anchored_at: isoTime.nullable(),
  }),
  environment: z.object({
    kind: z.enum(PROFILE_KINDS),
    profile: z.string(),
    base_url: z.string().nullable(),
  }),
  /** True only for an anchored certification whose evidence format is known and whose log key is included. */
  verifiable: z.boolean(),
  status: z.string(),
  /** What Evidence Desk concluded when it checked the evidence, before making this receipt. */
  verification: z
    .object({ result: z.enum(['verified', 'invalid', 'unverifiable']), message: z.string().nullable() })
    .nullable(),
  /** The evidence exactly as the service sent it. */
  evidence: z.unknown(),
  log_key: z
    .object({
      algorithm: z.literal('Ed25519'),
      /** SubjectPublicKeyInfo DER, base64. */
      public_key: z.string(),
      /** SHA-256 of that DER, hex: compare it with the fingerprint the service publishes. */
      fingerprint: sha256Hex,
    })
    .nullable(),
  how_to_verify: z.array(z.string()),
});

export type Receipt = z.infer<typeof receiptSchema>;

/** What a verification concludes, in the words of docs/evidence.md. Exit 0 only for `verified`. */
export type ReceiptVerdict =
  | {
      verdict: 'verified';
      message: string;
      file: string;
      certifiedAt: string;
      anchoredAt: string | null;
      demo: boolean;
      keyFingerprint: string;
    }
  | {
      verdict: 'content_differs';
      message: string;
      certified: { file: string; sha256: string; certifiedAt: string };
    }
  | {
      verdict: 'receipt_invalid';
      check: 'format' | 'leaf' | 'proof' | 'root' | 'signature' | 'key_id';
      message: string;
    }
  | { verdict: 'untrusted_key'; message: string; keyFingerprint: string }
  | { verdict: 'not_anchored'; message: string };
