import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import { certificationRequestSchema, toFieldErrors } from '../../protocol/certification-request';
import { authenticate, unauthorized } from '../authentication';
import { insertCertification, readCertification } from '../certifications';
import type { Client } from '../clients';
import type { SandboxContext } from '../context';
import { addedLatency, dropConnection, injectRequestFaults } from '../faults';
import { refuseOtherMethods, requireContentType } from '../http';
import { claimRequestId, completeRequestId, releaseRequestId } from '../idempotency';
import { Problem } from '../problem';
import { checkSignature } from '../signature';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** POST /v1/certifications and GET /v1/certifications/{id}, behind bearer auth and a per-client rate limit. */
export async function certificationRoutes(app: FastifyInstance, context: SandboxContext): Promise<void> {
  await app.register(async (scope) => authenticatedRoutes(scope, context));
  // Outside the authenticated scope: a wrong method is answered 405 whoever asks.
  refuseOtherMethods(app, '/v1/certifications', ['POST']);
  refuseOtherMethods(app, '/v1/certifications/:id', ['GET']);
}

async function authenticatedRoutes(app: FastifyInstance, context: SandboxContext): Promise<void> {
  app.addHook('onRequest', injectRequestFaults(context));
  app.addHook('onRequest', authenticate(context));
  await app.register(rateLimit, {
    hook: 'onRequest',
    max: () => context.rateLimit.max,
    timeWindow: context.rateLimit.windowMs,
    keyGenerator: (request) => request.client?.clientId ?? request.ip,
    errorResponseBuilder: (_request, limit) =>
      new Problem(
        429,
        'rate_limited',
        'Too many requests',
        `This client may make ${limit.max} requests per ${limit.after === '1' ? 'second' : 'window'}; try again in ${limit.after}.`,
      ),
  });

  app.post('/v1/certifications', async (request, reply) => createCertification(request, reply, context));
  app.get<{ Params: { id: string } }>('/v1/certifications/:id', async (request, reply) => {
    await addedLatency(context);
    const resource = readCertification(
      context.db,
      (request.client as Client).clientId,
      request.params.id,
      context.logKey,
    );
    if (!resource) {
      throw new Problem(
        404,
        'certification_not_found',
        'Not found',
        'No certification with this id exists for this client.',
      );
    }
    return reply.send(resource);
  });
}

async function createCertification(request: FastifyRequest, reply: FastifyReply, context: SandboxContext) {
  const client = request.client as Client;
  const requestId = readRequestId(request);
  requireContentType(request, 'application/json');
  checkRequestSignature(request, client, requestId);
  if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
    throw new Problem(422, 'validation_failed', 'Invalid certification', 'The body must be a JSON object.', {
      errors: [{ field: 'body', code: 'wrong_type', message: 'The body must be a JSON object.' }],
    });
  }
  const parsed = certificationRequestSchema.safeParse(request.body);
  if (!parsed.success) {
    const errors = toFieldErrors(parsed.error, request.body as Record<string, unknown>);
    throw new Problem(
      422,
      'validation_failed',
      'Invalid certification',
      errors.map((e) => e.message).join('; '),
      { errors },
    );
  }

  const claim = claimRequestId(context.db, client.clientId, requestId, bodyDigest(request.body));
  if (claim.kind === 'in_flight') {
    throw new Problem(
      409,
      'request_in_progress',
      'Request in progress',
      'A request with this X-Request-Id is still being processed; retry shortly.',
      {},
      { 'retry-after': '1' },
    );
  }
  if (claim.kind === 'different_body') {
    throw new Problem(
      422,
      'request_id_reused',
      'Request id reused',
      'This X-Request-Id was already used with a different body; use a new id for a new certification.',
    );
  }
  if (claim.kind === 'replay') {
    return reply
      .code(claim.status)
      .header('idempotent-replayed', 'true')
      .header('location', locationOf(claim.body))
      .type('application/json')
      .send(claim.body);
  }

  let json: string;
  try {
    await addedLatency(context);
    json = context.db.transaction(() => {
      const id = insertCertification(context.db, client.clientId, requestId, parsed.data);
      const body = JSON.stringify(readCertification(context.db, client.clientId, id, context.logKey));
      completeRequestId(context.db, client.clientId, requestId, 201, body);
      return body;
    })();
  } catch (error) {
    releaseRequestId(context.db, client.clientId, requestId);
    throw error;
  }
  const faults = context.faults();
  if (faults.dropResponseRate > 0 && Math.random() < faults.dropResponseRate) {
    dropConnection(request, reply);
    return reply;
  }
  return reply.code(201).header('location', locationOf(json)).type('application/json').send(json);
}

function readRequestId(request: FastifyRequest): string {
  const value = request.headers['x-request-id'];
  if (value === undefined) {
    throw new Problem(
      400,
      'request_id_required',
      'X-Request-Id required',
      'Send a unique X-Request-Id header (a UUID is ideal) with every creation.',
    );
  }
  if (typeof value !== 'string' || !REQUEST_ID_PATTERN.test(value)) {
    throw new Problem(
      400,
      'request_id_invalid',
      'Invalid X-Request-Id',
      'X-Request-Id must be 1 to 128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit.',
    );
  }
  return value;
}

function checkRequestSignature(request: FastifyRequest, client: Client, requestId: string): void {
  const header = request.headers['x-service-signature'];
  if (header === undefined) {
    if (client.requireSignature) {
      throw unauthorized(
        'ServiceSignature',
        'signature_required',
        'Signature required',
        'This client must sign creations with X-Service-Signature.',
      );
    }
    return;
  }
  const check = checkSignature(String(header), client.hmacKey, {
    method: request.method,
    path: request.url,
    requestId,
    body: request.rawBody ?? Buffer.alloc(0),
  });
  const refusals = {
    malformed: [
      'signature_malformed',
      'X-Service-Signature must look like "t=<unix seconds>,v1=<64 hex characters>".',
    ],
    expired: [
      'signature_expired',
      'The signature timestamp is more than 5 minutes away from the sandbox clock.',
    ],
    mismatch: ['signature_invalid', 'The signature does not match this request.'],
  } as const;
  if (check !== 'valid') {
    const [code, detail] = refusals[check];
    throw unauthorized('ServiceSignature', code, 'Signature refused', detail);
  }
}

// Compared after parsing, so whitespace and key order do not make two bodies "different".
function bodyDigest(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function locationOf(body: string): string {
  return `/v1/certifications/${(JSON.parse(body) as { id: string }).id}`;
}
