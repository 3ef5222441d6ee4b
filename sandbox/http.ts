import type { Duplex } from 'node:stream';
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
// Deeper nesting than this has no business in a certification body (extra fields are ignored but
// still compared for idempotency), and would cost a stack to walk.
export const MAX_JSON_DEPTH = 32;
/** By default the whole request (headers and body) must arrive within 15 s, its headers within 10 s. */
export const REQUEST_TIMEOUT_MS = 15_000;
const headersTimeoutOf = (requestTimeoutMs: number) => Math.min(10_000, requestTimeoutMs);
// Identifiers are a prefix and a UUID; longer path parameters reach the route and are answered 404.
const MAX_PARAM_LENGTH = 1000;

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
  FST_ERR_BAD_URL: [400, 'bad_url', 'The address is not a valid URL (a broken %-escape?).'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'bad_request', 'The request could not be routed.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'uri_too_long', 'The address is longer than the sandbox accepts.'],
};

/**
 * Errors Node's HTTP parser meets before there is a request to answer (RFC 9457 bodies all the
 * same): [status, code, detail]. Anything else it reports is a malformed request.
 */
const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'headers_too_large',
    'The request headers are larger than the sandbox accepts (16 KB).',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request did not arrive in time.'],
  HPE_HEADERS_TIMEOUT: [408, 'request_timeout', 'The request headers did not arrive in time.'],
};
const MALFORMED: [number, string, string] = [400, 'malformed_request', 'The request is not valid HTTP/1.1.'];

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
    (
      {
        400: 'Bad request',
        408: 'Request timeout',
        413: 'Body too large',
        414: 'Address too long',
        415: 'Unsupported media type',
        431: 'Request headers too large',
      } as Record<number, string>
    )[status] ?? 'Request refused'
  );
}

/**
 * Answers on the raw socket when Node's parser gives up before Fastify has a request: the same
 * problem+json as everywhere else, then the connection closes (it cannot be trusted any more).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const [status, code, detail] = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify(new Problem(status, code, titleOf(status), detail).body(''));
  socket.end(
    `HTTP/1.1 ${status} ${titleOf(status)}\r\nContent-Type: application/problem+json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The nesting depth of parsed JSON, walked without recursion so no body can exhaust the stack. */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A Fastify instance that speaks problem+json for every error, unknown route and bad body. */
export function createHttpApp(
  logRequests: boolean,
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
  tls?: { cert: string; key: string },
): FastifyInstance {
  const app = Fastify({
    // HTTPS when a certificate is given (the same server options as the plain one below).
    ...(tls ? { https: { ...tls, requireHostHeader: false, connectionsCheckingInterval: 1000 } } : {}),
    bodyLimit: BODY_LIMIT_BYTES,
    logger: logRequests ? { level: 'info' } : false,
    return503OnClosing: true,
    // Stopping the sandbox ends every connection at once, even one a client abandoned mid-request.
    forceCloseConnections: true,
    // A half-sent request holds a connection for at most this long (documented in docs/api.md).
    requestTimeout: requestTimeoutMs,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors met while routing (a broken %-escape) are answered like every other error.
    frameworkErrors: (error, request, reply) => void sendProblem(reply, toProblem(error, request)),
    clientErrorHandler: answerClientError,
    // Node would answer a request without Host with a bare 400; the hook below answers it in problem+json.
    // Timeouts are checked every second (Node's default, 30 s, would let a half-sent request linger).
    http: { requireHostHeader: false, connectionsCheckingInterval: 1000 },
  }) as unknown as FastifyInstance;
  app.server.headersTimeout = headersTimeoutOf(requestTimeoutMs);
  app.decorateRequest('client', undefined);
  app.decorateRequest('rawBody', undefined);
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body as Buffer;
    parseJson(request, (body as Buffer).toString('utf8'), (error, parsed) => {
      if (!error && jsonDepthExceeds(parsed, MAX_JSON_DEPTH))
        return done(
          new Problem(
            400,
            'body_too_deep',
            'Bad request',
            `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`,
          ),
          undefined,
        );
      done(error, parsed);
    });
  });
  app.setErrorHandler((error, request, reply) => sendProblem(reply, toProblem(error as Error, request)));
  app.addHook('onRequest', async (request) => {
    // RFC 9112 §3.2: an HTTP/1.1 request without a Host header is answered 400.
    if (!request.headers.host)
      throw new Problem(400, 'host_required', 'Bad request', 'HTTP/1.1 requests must carry a Host header.');
  });
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
