import { createHash, createHmac } from 'node:crypto';

export interface SigningKeys {
  /** Present when requests are to be signed with X-Service-Signature (docs/api.md, scheme v1). */
  hmacKey?: string;
  apiKey?: string;
  apiSecret?: string;
}

export interface OutgoingRequest {
  method: string;
  /** Path and query exactly as sent. */
  path: string;
  requestId: string;
  body: string;
}

/** The headers that identify and, when configured, sign one request. */
export function signRequest(
  request: OutgoingRequest,
  keys: SigningKeys,
  nowMs = Date.now(),
): Record<string, string> {
  const headers: Record<string, string> = { 'x-request-id': request.requestId };
  if (keys.apiKey && keys.apiSecret) {
    headers['x-api-key'] = keys.apiKey;
    headers['x-api-secret'] = keys.apiSecret;
  }
  if (keys.hmacKey) {
    const timestamp = Math.floor(nowMs / 1000);
    const bodyHash = createHash('sha256').update(request.body, 'utf8').digest('hex');
    const payload = [
      'v1',
      timestamp,
      request.method.toUpperCase(),
      request.path,
      request.requestId,
      bodyHash,
    ].join('\n');
    headers['x-service-signature'] =
      `t=${timestamp},v1=${createHmac('sha256', keys.hmacKey).update(payload).digest('hex')}`;
  }
  return headers;
}
