import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { BatchResult } from '../anchoring';
import { currentTreeSize } from '../anchoring';
import { countByState } from '../certifications';
import type { ClientCredentials } from '../clients';
import { createClient } from '../clients';
import type { Faults } from '../config';
import { faultsSchema } from '../config';
import type { SandboxContext } from '../context';
import { Problem } from '../problem';

export interface AdminActions {
  setFaults(change: Partial<Faults>): Faults;
  anchorNow(): BatchResult;
}

const newClientSchema = z
  .object({
    name: z.string().min(1).max(100).optional(),
    require_signature: z.boolean().optional(),
    require_api_key: z.boolean().optional(),
  })
  .strict();

/** /_sandbox/*: run-time knobs for tests and integrators, guarded by the admin token printed at start. */
export async function adminRoutes(
  app: FastifyInstance,
  context: SandboxContext & AdminActions,
): Promise<void> {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const given = Buffer.from(String(request.headers['x-sandbox-admin-token'] ?? ''));
    const expected = Buffer.from(context.adminToken);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new Problem(
        401,
        'admin_token_invalid',
        'Not authenticated',
        'Send the admin token printed at start as X-Sandbox-Admin-Token.',
      );
    }
  });
  app.get('/_sandbox/faults', async () => context.faults());
  app.patch('/_sandbox/faults', async (request) =>
    context.setFaults(parse(faultsSchema.partial(), request.body)),
  );
  app.post('/_sandbox/anchor', async () => context.anchorNow());
  app.get('/_sandbox/stats', async () => ({
    certifications: countByState(context.db),
    tree_size: currentTreeSize(context.db),
  }));
  app.post('/_sandbox/clients', async (request, reply) => {
    const input = parse(newClientSchema, request.body ?? {});
    const created: ClientCredentials = createClient(context.db, {
      name: input.name,
      requireSignature: input.require_signature,
      requireApiKey: input.require_api_key,
    });
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new Problem(422, 'validation_failed', 'Invalid settings', z.prettifyError(result.error));
  }
  return result.data;
}
