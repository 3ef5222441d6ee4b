import { describe, expect, it } from 'vitest';
import { checkSignature } from '../../sandbox/signature';

// The test vector published in docs/api.md: integrators check their signer against it.
const vector = {
  key: 'hk_example-key',
  timestamp: 1767225600,
  requestId: '0b9a7f0e-3c1d-4b8e-9f51-2f7c1e6d4a10',
  body: '{"asset_hash":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","asset_type":"document","source_system":"evidence-desk","event_type":"DOCUMENT_SIGNED"}',
  signature: '3d9dd7be382392e59ec95dda413d6d6622e72c0490af9dca11d59170a5dee487',
};
const request = {
  method: 'POST',
  path: '/v1/certifications',
  requestId: vector.requestId,
  body: Buffer.from(vector.body),
};
const header = `t=${vector.timestamp},v1=${vector.signature}`;

describe('X-Service-Signature scheme v1', () => {
  it('accepts the documented test vector', () => {
    expect(checkSignature(header, vector.key, request, vector.timestamp * 1000)).toBe('valid');
  });

  it('holds the timestamp to ±300 s', () => {
    expect(checkSignature(header, vector.key, request, (vector.timestamp + 300) * 1000)).toBe('valid');
    expect(checkSignature(header, vector.key, request, (vector.timestamp + 301) * 1000)).toBe('expired');
    expect(checkSignature(header, vector.key, request, (vector.timestamp - 301) * 1000)).toBe('expired');
  });

  it('binds the method, path and key', () => {
    const now = vector.timestamp * 1000;
    expect(checkSignature(header, vector.key, { ...request, method: 'PUT' }, now)).toBe('mismatch');
    expect(checkSignature(header, vector.key, { ...request, path: '/v1/certifications?x=1' }, now)).toBe(
      'mismatch',
    );
    expect(checkSignature(header, 'hk_other', request, now)).toBe('mismatch');
    expect(checkSignature(`v1=${vector.signature}`, vector.key, request, now)).toBe('malformed');
  });
});
