import { z } from 'zod';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import { ANCHORED_SERVICE_STATE, FAILED_SERVICE_STATES } from '../../protocol/service-states';

/**
 * Reads what the real service may send, where the spec says "not shown": the id as `id` or
 * `certification_id` (string or number), the state as `state` or `status`, anything else kept.
 * Written apart from the sandbox on purpose: it must not assume the sandbox's choices.
 */
export type ServiceProgress = 'anchored' | 'failed' | 'in_progress';

export interface CertificationReading {
  serviceId: string;
  /** The state word as the service wrote it, or null when it sent none. */
  serviceState: string | null;
  progress: ServiceProgress;
  evidence: unknown;
  failureMessage: string | null;
}

const idSchema = z.union([z.string().min(1).max(256), z.number().int().nonnegative()]).transform(String);
const wordSchema = z.string().min(1).max(100);

/** An answer that is not what was asked for, and what to tell people about it. */
export class UnreadableResponse extends Error {
  constructor(readonly said: Said) {
    super(said.key);
  }
}

export function readCertification(json: unknown, expectedId?: string): CertificationReading {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new UnreadableResponse(said('service.notACertification'));
  }
  const body = json as Record<string, unknown>;
  const id = idSchema.safeParse(body.id ?? body.certification_id ?? expectedId);
  if (!id.success) throw new UnreadableResponse(said('service.noId'));
  const stateWord = wordSchema.safeParse(body.state ?? body.status);
  const serviceState = stateWord.success ? stateWord.data : null;
  const normal = serviceState?.toLowerCase() ?? '';
  return {
    serviceId: id.data,
    serviceState,
    progress:
      normal === ANCHORED_SERVICE_STATE
        ? 'anchored'
        : FAILED_SERVICE_STATES.has(normal)
          ? 'failed'
          : 'in_progress',
    evidence: body.evidence ?? null,
    failureMessage: failureMessageOf(body),
  };
}

function failureMessageOf(body: Record<string, unknown>): string | null {
  const failure = body.failure ?? body.error;
  if (typeof failure === 'string') return failure;
  if (failure && typeof failure === 'object') {
    const message =
      (failure as Record<string, unknown>).message ?? (failure as Record<string, unknown>).detail;
    if (typeof message === 'string') return message;
  }
  return null;
}

/** The log's public key (docs/api.md: the sandbox's; the real service may have none). */
export function readLogKey(json: unknown): string {
  const key = (json as { public_key?: unknown } | null)?.public_key;
  if (typeof key !== 'string') throw new UnreadableResponse(said('service.noLogKey'));
  return key;
}

/** A consistency proof between two sizes of the log: SHA-256 nodes in hex. */
export function readConsistency(json: unknown): string[] {
  const nodes = (json as { consistency?: unknown } | null)?.consistency;
  if (
    !Array.isArray(nodes) ||
    !nodes.every((node) => typeof node === 'string' && /^[0-9a-f]{64}$/.test(node))
  )
    throw new UnreadableResponse(said('service.unreadableConsistency'));
  return nodes as string[];
}

/** The most human sentence an error body offers, whatever its shape, or undefined. */
export function errorMessageOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const key of ['detail', 'error_description', 'message', 'title', 'error']) {
      const value = body[key];
      if (typeof value === 'string' && value.trim()) return value.trim().slice(0, 500);
    }
  } catch {
    // Not JSON: plain text is still worth showing when it is short and not markup.
  }
  const trimmed = text.trim();
  return trimmed && trimmed.length <= 300 && !trimmed.startsWith('<') ? trimmed : undefined;
}

/** A machine-readable code from an error body, if it has one. */
export function errorCodeOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const code = body.code ?? body.error;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
