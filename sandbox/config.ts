import { z } from 'zod';

/** Faults the sandbox injects, settable at start and while it runs. All shares are 0..1. */
export const faultsSchema = z
  .object({
    /** Added while each API request is processed (for creation: after its X-Request-Id is claimed). */
    latencyMs: z.number().int().min(0).max(60_000),
    /** Share of API requests answered 500 or 503 before anything is done. */
    errorRate: z.number().min(0).max(1),
    /** Share of API requests whose connection is dropped before anything is done. */
    dropRate: z.number().min(0).max(1),
    /** Share of creations whose connection is dropped after the certification was stored: the reply is lost. */
    dropResponseRate: z.number().min(0).max(1),
    /** Share of certifications that fail at anchoring (state `failed`). */
    anchorFailureRate: z.number().min(0).max(1),
    /** Minimum age before a pending certification may be anchored. */
    anchorDelayMs: z.number().int().min(0),
    /** Lifetime of newly issued access tokens. */
    tokenLifetimeSeconds: z.number().int().min(1).max(86_400),
    /** Pauses anchoring altogether (certifications stay `pending`). */
    anchoringPaused: z.boolean(),
    /** Paths answered 404, as by a service that lacks them (the real one may have no log endpoints). */
    withoutPaths: z.array(z.string()),
  })
  .strict();

export type Faults = z.infer<typeof faultsSchema>;

export const DEFAULT_FAULTS: Faults = {
  latencyMs: 0,
  errorRate: 0,
  dropRate: 0,
  dropResponseRate: 0,
  anchorFailureRate: 0,
  withoutPaths: [],
  anchorDelayMs: 0,
  tokenLifetimeSeconds: 300,
  anchoringPaused: false,
};

export interface RateLimit {
  /** Requests a client may make per window on the /v1 API. */
  max: number;
  windowMs: number;
}

export interface SandboxConfig {
  /** SQLite file, or ':memory:' for a sandbox that forgets everything when it stops. */
  dbPath: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** When set, the token endpoint is served only on this separate port (the spec's {auth_url}). */
  authPort?: number;
  batchIntervalMs: number;
  maxBatchSize: number;
  rateLimit: RateLimit;
  faults: Faults;
  /** Guards the /_sandbox admin routes; a random one is made when absent. */
  adminToken?: string;
  /** Structured request logs on stdout. */
  logRequests: boolean;
  /** A request must arrive whole within this (its headers within 10 s at most); then 408 and close. */
  requestTimeoutMs: number;
  /** Serve HTTPS with this certificate and key (PEM), as a service behind a private CA would. */
  tls?: { cert: string; key: string };
}

export const DEFAULT_CONFIG: SandboxConfig = {
  dbPath: '.sandbox/sandbox.sqlite',
  host: '127.0.0.1',
  port: 8787,
  batchIntervalMs: 2000,
  maxBatchSize: 10_000,
  rateLimit: { max: 1000, windowMs: 10_000 },
  faults: DEFAULT_FAULTS,
  logRequests: false,
  requestTimeoutMs: 15_000,
};
