import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { Client } from './clients';
import { Problem, sendProblem } from './problem';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated client, set by the bearer check. */
    client?: Client;
    /** The body exactly as received, for signature checks. */
    rawBody?: Buffer;
  }
}

// Certification bodies are four short fields; anything near this size is a mistake or an attack.
export const BODY_LIMIT_BYTES = 16 * 1024;

const FASTIFY_PROBLEMS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [
    413,
    'body_too_large',
    `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`,
  ],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'This content type is not accepted here.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'malformed_json', 'The request body is empty but was declared as JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    400,
    'bad_request',
    'The Content-Length header does not match the body.',
  ],
};

/** Turns any error into the problem+json answer a client should see; never a stack trace. */
export function toProblem(error: FastifyError | Error, request: FastifyRequest): Problem {
  if (error instanceof Problem) return error;
  const fastifyError = error as FastifyError;
  const known = fastifyError.code ? FASTIFY_PROBLEMS[fastifyError.code] : undefined;
  if (known) return new Problem(known[0], known[1], titleOf(known[0]), known[2]);
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new Problem(400, 'malformed_json', 'Malformed JSON', 'The request body is not valid JSON.');
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return new Problem(status, 'bad_request', titleOf(status), error.message);
  request.log.error({ err: error }, 'unhandled error');
  return new Problem(500, 'internal_error', 'Internal error', 'The sandbox failed to handle this request.');
}

function titleOf(status: number): string {
  return (
    ({ 400: 'Bad request', 413: 'Body too large', 415: 'Unsupported media type' } as Record<number, string>)[
      status
    ] ?? 'Request refused'
  );
}

/** A Fastify instance that speaks problem+json for every error, unknown route and bad body. */
export function createHttpApp(logRequests: boolean): FastifyInstance {
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    logger: logRequests ? { level: 'info' } : false,
    return503OnClosing: true,
    // Stopping the sandbox ends every connection at once, even one a client abandoned mid-request.
    forceCloseConnections: true,
  });
  app.decorateRequest('client', undefined);
  app.decorateRequest('rawBody', undefined);
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body as Buffer;
    parseJson(request, (body as Buffer).toString('utf8'), done);
  });
  app.setErrorHandler((error, request, reply) => sendProblem(reply, toProblem(error as Error, request)));
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      new Problem(
        404,
        'not_found',
        'Not found',
        `There is no ${request.method} ${request.url.split('?')[0]} here.`,
      ),
    ),
  );
  app.addHook('onSend', async (request, reply) => {
    const requestId = request.headers['x-request-id'];
    if (typeof requestId === 'string' && requestId.length <= 128) reply.header('x-request-id', requestId);
  });
  return app;
}

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Answers 405 with an Allow header for the methods a path does not take. */
export function refuseOtherMethods(app: FastifyInstance, url: string, allowed: HTTPMethods[]): void {
  const others = METHODS.filter((method) => !allowed.includes(method));
  const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
  app.route({
    method: others,
    url,
    handler: async (request, reply) =>
      sendProblem(
        reply,
        new Problem(
          405,
          'method_not_allowed',
          'Method not allowed',
          `${request.method} is not allowed here; use ${allow.join(' or ')}.`,
          {},
          {
            allow: allow.join(', '),
          },
        ),
      ),
  });
}

export function requireContentType(request: FastifyRequest, expected: string): void {
  const actual = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (actual !== expected) {
    throw new Problem(
      415,
      'unsupported_media_type',
      'Unsupported media type',
      `Send the body as ${expected}.`,
    );
  }
}
