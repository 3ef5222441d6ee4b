import type { FastifyInstance } from 'fastify';
import type { DemoTsa } from '../demo-tsa';
import { TSA_CRL_PATH, TSA_OCSP_PATH } from '../demo-tsa';
import { refuseOtherMethods } from '../http';
import { Problem } from '../problem';
import type { SandboxContext } from '../context';
import { refuseAbsentPath } from '../faults';

export const TSA_PATH = '/tsa';
export const TSA_ROOT_PATH = '/tsa/root.pem';

/**
 * The DEMO timestamping authority over HTTP, as RFC 3161 §3.4 has it: a DER TimeStampReq posted as
 * application/timestamp-query, a DER TimeStampResp back as application/timestamp-reply. Its root
 * certificate is public. No token needed: a TSA serves anyone.
 */
export async function tsaRoutes(app: FastifyInstance, tsa: DemoTsa, context: SandboxContext): Promise<void> {
  app.addHook('onRequest', async (request) => refuseAbsentPath(context, request));
  app.addContentTypeParser(
    'application/timestamp-query',
    { parseAs: 'buffer', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, body),
  );
  app.post(TSA_PATH, async (request, reply) => {
    if (request.headers['content-type'] !== 'application/timestamp-query' || !Buffer.isBuffer(request.body))
      throw new Problem(
        415,
        'unsupported_media_type',
        'Unsupported media type',
        'Send a DER TimeStampReq as application/timestamp-query.',
      );
    const answer = await tsa.reply(new Uint8Array(request.body));
    return reply.header('content-type', 'application/timestamp-reply').send(Buffer.from(answer));
  });
  app.get(TSA_ROOT_PATH, async (_request, reply) =>
    reply.header('content-type', 'application/x-pem-file').send(tsa.rootPem),
  );
  // The signer's status, where its certificate says (RFC 6960 over HTTP POST, RFC 5280 CRL by GET).
  app.addContentTypeParser(
    'application/ocsp-request',
    { parseAs: 'buffer', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, body),
  );
  app.post(TSA_OCSP_PATH, async (request, reply) => {
    if (request.headers['content-type'] !== 'application/ocsp-request' || !Buffer.isBuffer(request.body))
      throw new Problem(
        415,
        'unsupported_media_type',
        'Unsupported media type',
        'Send a DER OCSPRequest as application/ocsp-request.',
      );
    const answer = await tsa.ocsp(new Uint8Array(request.body));
    return reply.header('content-type', 'application/ocsp-response').send(Buffer.from(answer));
  });
  app.get(TSA_CRL_PATH, async (_request, reply) =>
    reply.header('content-type', 'application/pkix-crl').send(Buffer.from(await tsa.crl())),
  );
  refuseOtherMethods(app, TSA_PATH, ['POST']);
  refuseOtherMethods(app, TSA_ROOT_PATH, ['GET']);
  refuseOtherMethods(app, TSA_OCSP_PATH, ['POST']);
  refuseOtherMethods(app, TSA_CRL_PATH, ['GET']);
}
