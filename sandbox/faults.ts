import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';
import { Problem } from './problem';

/** onRequest hook: drops the connection or fails the request before anything is done, as configured. */
export function injectRequestFaults(context: SandboxContext) {
  // Injected errors alternate 503 (with Retry-After) and 500, so any two in a row show a client both.
  let injected = 0;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    refuseAbsentPath(context, request);
    const faults = context.faults();
    if (faults.dropRate > 0 && Math.random() < faults.dropRate) {
      dropConnection(request, reply);
      return reply;
    }
    if (faults.errorRate > 0 && Math.random() < faults.errorRate) {
      const unavailable = injected++ % 2 === 0;
      throw new Problem(
        unavailable ? 503 : 500,
        'fault_injected',
        unavailable ? 'Service unavailable' : 'Internal error',
        'The sandbox was told to fail this request (fault injection).',
        {},
        unavailable ? { 'retry-after': '1' } : {},
      );
    }
    return undefined;
  };
}

/** Ends the exchange without a response, as a lost connection would. */
export function dropConnection(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  request.raw.socket.destroy();
}

export function addedLatency(context: SandboxContext): Promise<void> {
  const ms = context.faults().latencyMs;
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** Plays a service that lacks an endpoint (the real one may have no log endpoints): 404 for it. */
export function refuseAbsentPath(context: SandboxContext, request: FastifyRequest): void {
  if (context.faults().withoutPaths.includes(request.url.split('?')[0] ?? ''))
    throw new Problem(404, 'not_found', 'Not found', 'This service has no such endpoint (fault injection).');
}
