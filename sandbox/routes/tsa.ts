import type { FastifyInstance } from 'fastify';
import type { DemoTsa } from '../demo-tsa';
import { TSA_CRL_PATH, TSA_OCSP_PATH } from '../demo-tsa-status';
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
  postDer(
    app,
    TSA_PATH,
    { query: 'application/timestamp-query', answer: 'application/timestamp-reply', what: 'TimeStampReq' },
    tsa.reply,
  );
  app.get(TSA_ROOT_PATH, async (_request, reply) =>
    reply.header('content-type', 'application/x-pem-file').send(tsa.rootPem),
  );
  // The signer's status, where its certificate says (RFC 6960 over HTTP POST, RFC 5280 CRL by GET).
  postDer(
    app,
    TSA_OCSP_PATH,
    { query: 'application/ocsp-request', answer: 'application/ocsp-response', what: 'OCSPRequest' },
    tsa.ocsp,
  );
  app.get(TSA_CRL_PATH, async (_request, reply) =>
    reply.header('content-type', 'application/pkix-crl').send(Buffer.from(await tsa.crl())),
  );
  refuseOtherMethods(app, TSA_PATH, ['POST']);
  refuseOtherMethods(app, TSA_ROOT_PATH, ['GET']);
  refuseOtherMethods(app, TSA_OCSP_PATH, ['POST']);
  refuseOtherMethods(app, TSA_CRL_PATH, ['GET']);
}

/** A DER request posted as its media type (at most 16 KiB, else 415), answered with DER as another. */
function postDer(
  app: FastifyInstance,
  path: string,
  types: { query: string; answer: string; what: string },
  answer: (request: Uint8Array) => Promise<Uint8Array>,
): void {
  app.addContentTypeParser(types.query, { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  app.post(path, async (request, reply) => {
    if (request.headers['content-type'] !== types.query || !Buffer.isBuffer(request.body))
      throw new Problem(
        415,
        'unsupported_media_type',
        'Unsupported media type',
        `Send a DER ${types.what} as ${types.query}.`,
      );
    const der = await answer(new Uint8Array(request.body));
    return reply.header('content-type', types.answer).send(Buffer.from(der));
  });
}
