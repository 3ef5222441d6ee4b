import type { FastifyInstance, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type { SandboxContext } from '../context';
import { authenticateClient } from '../clients';
import { addedLatency, injectRequestFaults } from '../faults';
import { refuseOtherMethods, requireContentType, toProblem } from '../http';
import { Problem, sendProblem } from '../problem';
import { issueToken } from '../tokens';

export const TOKEN_PATH = '/oauth/token';
const REALM = 'Basic realm="evidence-sandbox"';

/**
 * RFC 6749 §5.2 error: a problem+json body that also carries the OAuth members `error` and
 * `error_description`, so both OAuth libraries and problem-aware clients read it.
 */
function oauthProblem(status: number, error: string, description: string): Problem {
  return new Problem(
    status,
    error,
    status === 401 ? 'Client authentication failed' : 'Token request refused',
    description,
    {
      error,
      error_description: description,
    },
    status === 401 ? { 'www-authenticate': REALM } : {},
  );
}

/** POST /oauth/token: the client credentials grant (RFC 6749 §4.4). */
export async function tokenRoutes(app: FastifyInstance, context: SandboxContext): Promise<void> {
  await app.register(formbody);
  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error as Error, request);
    if (problem.status >= 500 || 'error' in problem.extra) return sendProblem(reply, problem);
    return sendProblem(
      reply,
      new Problem(
        problem.status,
        problem.code,
        problem.title,
        problem.detail,
        {
          error: 'invalid_request',
          error_description: problem.detail,
        },
        problem.headers,
      ),
    );
  });
  app.addHook('onRequest', injectRequestFaults(context));
  app.post(TOKEN_PATH, async (request, reply) => {
    requireContentType(request, 'application/x-www-form-urlencoded');
    const form = (request.body ?? {}) as Record<string, unknown>;
    const field = (name: string): string | undefined => {
      const value = form[name];
      if (value === undefined || value === '') return undefined;
      if (typeof value !== 'string')
        throw oauthProblem(400, 'invalid_request', `${name} was sent more than once.`);
      return value;
    };
    const grantType = field('grant_type');
    if (!grantType) throw oauthProblem(400, 'invalid_request', 'grant_type is required.');
    if (grantType !== 'client_credentials') {
      throw oauthProblem(
        400,
        'unsupported_grant_type',
        `Only the client_credentials grant is supported, not ${grantType}.`,
      );
    }
    const credentials = clientCredentials(request, field('client_id'), field('client_secret'));
    await addedLatency(context);
    const client = authenticateClient(context.db, credentials.id, credentials.secret);
    if (!client) throw oauthProblem(401, 'invalid_client', 'The client id or secret is not right.');
    const token = issueToken(context.db, client.clientId, context.faults().tokenLifetimeSeconds);
    // RFC 6749 §3.3: the sandbox grants its one scope whatever was asked; a request that asked
    // for something else is told what it got.
    const requested = field('scope');
    return reply
      .header('cache-control', 'no-store')
      .header('pragma', 'no-cache')
      .send({
        access_token: token.accessToken,
        token_type: 'Bearer',
        expires_in: token.expiresInSeconds,
        ...(requested !== undefined && requested !== GRANTED_SCOPE ? { scope: GRANTED_SCOPE } : {}),
      });
  });
  refuseOtherMethods(app, TOKEN_PATH, ['POST']);
}

/** The one scope the sandbox has: everything its API does (docs/api.md). */
export const GRANTED_SCOPE = 'certifications';

/** Client authentication by HTTP Basic (RFC 6749 §2.3.1) or by form fields — one method, not both. */
function clientCredentials(
  request: FastifyRequest,
  formId?: string,
  formSecret?: string,
): { id: string; secret: string } {
  const header = request.headers.authorization;
  if (header !== undefined) {
    if (formId !== undefined || formSecret !== undefined) {
      throw oauthProblem(
        400,
        'invalid_request',
        'Authenticate with HTTP Basic or with form fields, not both.',
      );
    }
    const basic = parseBasic(header);
    if (!basic)
      throw oauthProblem(401, 'invalid_client', 'The Authorization header is not valid HTTP Basic.');
    return basic;
  }
  if (!formId || !formSecret)
    throw oauthProblem(401, 'invalid_client', 'client_id and client_secret are required.');
  return { id: formId, secret: formSecret };
}

function parseBasic(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    // RFC 6749 §2.3.1: both parts are form-url-encoded before being joined.
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}
