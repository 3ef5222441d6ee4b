import type { FastifyInstance } from 'fastify';
import type { DemoTsa } from '../demo-tsa';
import { refuseOtherMethods } from '../http';
import { Problem } from '../problem';

export const TSA_PATH = '/tsa';
export const TSA_ROOT_PATH = '/tsa/root.pem';

/**
 * The DEMO timestamping authority over HTTP, as RFC 3161 §3.4 has it: a DER TimeStampReq posted as
 * application/timestamp-query, a DER TimeStampResp back as application/timestamp-reply. Its root
 * certificate is public. No token needed: a TSA serves anyone.
 */
export async function tsaRoutes(app: FastifyInstance, tsa: DemoTsa): Promise<void> {
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
  refuseOtherMethods(app, TSA_PATH, ['POST']);
  refuseOtherMethods(app, TSA_ROOT_PATH, ['GET']);
}
