import type { FastifyInstance } from 'fastify';
import { currentTreeSize, latestTreeHead } from '../anchoring';
import { logNodesIn } from '../log-nodes';
import { MerkleLog } from '../merkle';
import type { SandboxContext } from '../context';
import { refuseAbsentPath } from '../faults';
import { refuseOtherMethods } from '../http';
import { Problem } from '../problem';

/**
 * The log's public face: its verification key, newest signed tree head and consistency proofs
 * between two sizes. Public, no token needed.
 */
export async function logRoutes(app: FastifyInstance, context: SandboxContext): Promise<void> {
  app.addHook('onRequest', async (request) => refuseAbsentPath(context, request));
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
  app.get('/v1/log/consistency', async (request) => {
    const query = request.query as Record<string, unknown>;
    const size = currentTreeSize(context.db);
    const first = Number(query.first);
    const second = Number(query.second ?? size);
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 1 || first > second)
      throw new Problem(
        400,
        'invalid_tree_sizes',
        'Invalid tree sizes',
        'Give first and second as whole numbers with 1 <= first <= second.',
      );
    if (second > size)
      throw new Problem(400, 'tree_size_too_large', 'Tree size too large', `The log has ${size} entries.`);
    const proof = new MerkleLog(logNodesIn(context.db)).consistencyProof(first, second);
    return { first, second, consistency: proof.map((node) => node.toString('hex')) };
  });
  refuseOtherMethods(app, '/v1/log/consistency', ['GET']);
  refuseOtherMethods(app, '/v1/log/public-key', ['GET']);
  refuseOtherMethods(app, '/v1/log/tree-head', ['GET']);
}
