import type { FastifyReply } from 'fastify';

/**
 * An error the sandbox answers with, as RFC 9457 problem details.
 * `code` is the stable, machine-readable part clients switch on; `detail` is for people.
 */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  // Read by Fastify for plugins (rate limit) that throw this object.
  get statusCode(): number {
    return this.status;
  }

  body(instance: string): Record<string, unknown> {
    return {
      type: `https://evidence-desk.invalid/problems/${this.code}`,
      title: this.title,
      status: this.status,
      detail: this.detail,
      code: this.code,
      instance,
      ...this.extra,
    };
  }
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  // RFC 9110 §15.5.2: a 401 always names how to authenticate, whichever part of the sandbox raised it.
  const challenge =
    problem.status === 401 && !problem.headers['www-authenticate']
      ? { 'www-authenticate': 'Bearer realm="evidence-sandbox"' }
      : {};
  return reply
    .code(problem.status)
    .headers({ ...challenge, ...problem.headers })
    .type('application/problem+json')
    .send(problem.body(reply.request.url));
}
