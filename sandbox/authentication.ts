import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';
import { findClient } from './clients';
import { Problem } from './problem';
import { sameDigest } from './secrets';
import { checkToken } from './tokens';

export const REALM = 'realm="evidence-sandbox"';

/**
 * A 401 for the API key pair or the request signature. RFC 9110 §15.5.2: every 401 carries a
 * WWW-Authenticate challenge; these name the scheme that was not satisfied (docs/api.md).
 */
export function unauthorized(
  scheme: 'ApiKey' | 'ServiceSignature',
  code: string,
  title: string,
  detail: string,
): Problem {
  return new Problem(401, code, title, detail, {}, { 'www-authenticate': `${scheme} ${REALM}` });
}

function bearerProblem(
  code: string,
  detail: string,
  oauthError?: 'invalid_token' | 'invalid_request',
): Problem {
  // RFC 6750 §3: no error attribute when the request simply carried no token.
  const challenge = oauthError
    ? `Bearer ${REALM}, error="${oauthError}", error_description="${detail}"`
    : `Bearer ${REALM}`;
  return new Problem(401, code, 'Not authenticated', detail, {}, { 'www-authenticate': challenge });
}

/**
 * onRequest hook for the /v1 API: a valid bearer token is always required; an API key pair,
 * when sent (or when the client requires one), must belong to the same client.
 */
export function authenticate(context: SandboxContext) {
  return async (request: FastifyRequest) => {
    const authorization = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    // RFC 6750 §3.1: the Bearer scheme with no token is a malformed request, not a missing one.
    if (!match && /^Bearer\s*$/i.test(authorization))
      throw new Problem(
        400,
        'token_malformed',
        'Bad request',
        'The Authorization header names Bearer but carries no token.',
        {},
        {
          'www-authenticate': `Bearer ${REALM}, error="invalid_request", error_description="no token after Bearer"`,
        },
      );
    if (!match)
      throw bearerProblem('token_missing', 'Send an access token as "Authorization: Bearer <token>".');
    const check = checkToken(context.db, match[1] as string);
    if (check.status === 'unknown')
      throw bearerProblem('token_invalid', 'The access token is not valid.', 'invalid_token');
    if (check.status === 'expired')
      throw bearerProblem('token_expired', 'The access token expired.', 'invalid_token');
    const client = findClient(context.db, check.clientId);
    if (!client) throw bearerProblem('token_invalid', 'The access token is not valid.', 'invalid_token');

    const apiKey = request.headers['x-api-key'];
    const apiSecret = request.headers['x-api-secret'];
    if (apiKey !== undefined || apiSecret !== undefined) {
      const matches =
        typeof apiKey === 'string' &&
        typeof apiSecret === 'string' &&
        apiKey === client.apiKey &&
        sameDigest(apiSecret, client.apiSecretHash);
      if (!matches)
        throw unauthorized(
          'ApiKey',
          'api_key_invalid',
          'Not authenticated',
          'The API key pair is not right for this client.',
        );
    } else if (client.requireApiKey) {
      throw unauthorized(
        'ApiKey',
        'api_key_required',
        'Not authenticated',
        'This client must send X-API-Key and X-API-Secret.',
      );
    }
    request.client = client;
  };
}
