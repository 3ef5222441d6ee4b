import { catchUpLogNodes } from './log-nodes';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { BatchResult } from './anchoring';
import { anchorDueBatch } from './anchoring';
import type { ClientCredentials, ClientOptions } from './clients';
import { createClient, ensureDemoClient } from './clients';
import type { Faults, SandboxConfig } from './config';
import { DEFAULT_CONFIG, faultsSchema } from './config';
import type { SandboxContext } from './context';
import type { SandboxDb } from './db';
import { openSandboxDb } from './db';
import { createHttpApp } from './http';
import { releaseAbandonedClaims } from './idempotency';
import type { LogKey } from './log-key';
import { loadOrCreateLogKey } from './log-key';
import { adminRoutes } from './routes/admin';
import { certificationRoutes } from './routes/certifications';
import { logRoutes } from './routes/log';
import { TOKEN_PATH, tokenRoutes } from './routes/token';
import { TSA_PATH, tsaRoutes } from './routes/tsa';
import type { DemoTsa } from './demo-tsa';
import { loadOrCreateDemoTsa } from './demo-tsa';
import { purgeExpiredTokens } from './tokens';

export interface Sandbox {
  /** The API's base address, the spec's {base_url}. */
  baseUrl: string;
  /** The full token endpoint address; on a separate port when `authPort` was given. */
  tokenUrl: string;
  adminToken: string;
  demoClient: ClientCredentials;
  logKey: LogKey;
  /** The DEMO timestamping authority: its address, and the root certificate to trust it by. */
  tsa: { url: string; rootPem: string; statusRequests(): number };
  db: SandboxDb;
  createClient(options?: ClientOptions): ClientCredentials;
  faults(): Faults;
  setFaults(change: Partial<Faults>): Faults;
  /** Runs one anchoring batch now instead of waiting for the interval. */
  anchorNow(): BatchResult;
  stop(): Promise<void>;
}

export type SandboxOptions = Partial<Omit<SandboxConfig, 'faults'>> & { faults?: Partial<Faults> };

/** Starts a sandbox service on loopback; resolves once it is listening. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config: SandboxConfig = {
    ...DEFAULT_CONFIG,
    ...options,
    faults: faultsSchema.parse({ ...DEFAULT_CONFIG.faults, ...options.faults }),
  };
  const db = openSandboxDb(config.dbPath);
  releaseAbandonedClaims(db);
  catchUpLogNodes(db);
  const logKey = loadOrCreateLogKey(db);
  const demoClient = ensureDemoClient(db);
  let demoTsa: DemoTsa;
  try {
    demoTsa = await loadOrCreateDemoTsa(db);
  } catch (error) {
    db.close();
    throw error;
  }
  let faults = config.faults;

  const anchorNow = () =>
    faults.anchoringPaused
      ? { anchored: 0, failed: 0, treeSize: 0 }
      : anchorDueBatch(db, logKey, { ...faults, maxBatchSize: config.maxBatchSize });
  const context: SandboxContext & { setFaults(change: Partial<Faults>): Faults; anchorNow(): BatchResult } = {
    db,
    logKey,
    rateLimit: config.rateLimit,
    adminToken: config.adminToken ?? randomBytes(24).toString('base64url'),
    faults: () => faults,
    setFaults: (change) => (faults = faultsSchema.parse({ ...faults, ...change })),
    anchorNow,
  };

  const apps: FastifyInstance[] = [];
  const api = createHttpApp(config.logRequests, config.requestTimeoutMs, config.tls);
  apps.push(api);
  await api.register(async (scope) => certificationRoutes(scope, context));
  await api.register(async (scope) => logRoutes(scope, context));
  await api.register(async (scope) => adminRoutes(scope, context));
  await api.register(async (scope) => tsaRoutes(scope, demoTsa, context));
  let auth = api;
  if (config.authPort !== undefined) {
    auth = createHttpApp(config.logRequests, config.requestTimeoutMs, config.tls);
    apps.push(auth);
  }
  await auth.register(async (scope) => tokenRoutes(scope, context));

  const anchoring = setInterval(() => {
    try {
      anchorNow();
      purgeExpiredTokens(db);
    } catch (error) {
      api.log.error({ err: error }, 'anchoring batch failed; it will be retried');
    }
  }, config.batchIntervalMs);

  try {
    const baseUrl = await api.listen({ host: config.host, port: config.port });
    const authBase = auth === api ? baseUrl : await auth.listen({ host: config.host, port: config.authPort });
    await demoTsa.publishAt(baseUrl);
    return {
      baseUrl,
      tokenUrl: `${authBase}${TOKEN_PATH}`,
      adminToken: context.adminToken,
      demoClient,
      logKey,
      tsa: {
        url: `${baseUrl}${TSA_PATH}`,
        rootPem: demoTsa.rootPem,
        statusRequests: () => demoTsa.statusRequests(),
      },
      db,
      createClient: (clientOptions) => createClient(db, clientOptions),
      faults: context.faults,
      setFaults: context.setFaults,
      anchorNow,
      stop: async () => {
        clearInterval(anchoring);
        await Promise.all(apps.map((app) => app.close()));
        db.close();
      },
    };
  } catch (error) {
    clearInterval(anchoring);
    await Promise.all(apps.map((app) => app.close()));
    db.close();
    throw error;
  }
}
