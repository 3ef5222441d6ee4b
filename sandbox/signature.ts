import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How far a signature's timestamp may be from the sandbox clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface SignedRequest {
  method: string;
  /** Path with query string, exactly as sent. */
  path: string;
  requestId: string;
  body: Buffer;
}

/**
 * The X-Service-Signature string-to-sign (docs/api.md, "Request signatures"): one field a line,
 * so no field can bleed into the next.
 */
export function stringToSign(timestamp: string, request: SignedRequest): string {
  const bodyHash = createHash('sha256').update(request.body).digest('hex');
  return ['v1', timestamp, request.method.toUpperCase(), request.path, request.requestId, bodyHash].join(
    '\n',
  );
}

export type SignatureCheck = 'valid' | 'malformed' | 'expired' | 'mismatch';

export function checkSignature(
  header: string,
  hmacKey: string,
  request: SignedRequest,
  nowMs = Date.now(),
): SignatureCheck {
  const parts = new Map<string, string>();
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) parts.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const timestamp = parts.get('t');
  const signature = parts.get('v1');
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature || !/^[0-9a-f]{64}$/.test(signature))
    return 'malformed';
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return 'expired';
  const expected = createHmac('sha256', hmacKey).update(stringToSign(timestamp, request)).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex')) ? 'valid' : 'mismatch';
}
