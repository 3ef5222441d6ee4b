import type { FastifyInstance } from 'fastify';
import { latestTreeHead } from '../anchoring';
import type { SandboxContext } from '../context';
import { refuseOtherMethods } from '../http';
import { Problem } from '../problem';

/** The log's public face: its verification key and newest signed tree head. Public, no token needed. */
export async function logRoutes(app: FastifyInstance, context: SandboxContext): Promise<void> {
  app.get('/v1/log/public-key', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').send({
      algorithm: 'Ed25519',
      key_id: context.logKey.keyId,
      public_key: context.logKey.publicKeyDer.toString('base64'),
      public_key_pem: context.logKey.publicKeyPem,
    }),
  );
  app.get('/v1/log/tree-head', async () => {
    const head = latestTreeHead(context.db);
    if (!head) throw new Problem(404, 'log_empty', 'Log empty', 'Nothing has been anchored yet.');
    return { ...head, signature_algorithm: 'Ed25519', key_id: context.logKey.keyId };
  });
  refuseOtherMethods(app, '/v1/log/public-key', ['GET']);
  refuseOtherMethods(app, '/v1/log/tree-head', ['GET']);
}
