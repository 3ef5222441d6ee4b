import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient, listClients } from './clients';
import type { Faults } from './config';
import { DEFAULT_CONFIG, faultsSchema } from './config';
import { openSandboxDb } from './db';
import { startSandbox } from './server';
import { makeLocalCertificates } from './tls';

const USAGE = `Evidence Desk sandbox: a local Evidence Certification Service.

Usage:
  npm run sandbox -- [serve] [options]       start the service (default)
  npm run sandbox -- clients create [--name N] [--require-signature] [--require-api-key] [--db FILE]
  npm run sandbox -- clients list [--db FILE]

Serve options:
  --db FILE              SQLite file, or :memory: (default ${DEFAULT_CONFIG.dbPath})
  --port N               API port (default ${DEFAULT_CONFIG.port}; 0 picks a free one)
  --auth-port N          serve the token endpoint on its own port (the spec's {auth_url})
  --host ADDR            listen address (default ${DEFAULT_CONFIG.host})
  --batch-interval MS    anchoring batch interval (default ${DEFAULT_CONFIG.batchIntervalMs})
  --rate-limit N/MS      per-client limit, e.g. 1000/10000 (default ${DEFAULT_CONFIG.rateLimit.max}/${DEFAULT_CONFIG.rateLimit.windowMs})
  --token-lifetime S     access token lifetime in seconds (default ${DEFAULT_CONFIG.faults.tokenLifetimeSeconds})
  --faults JSON          injected faults, e.g. '{"errorRate":0.2,"latencyMs":300}' (docs/api.md)
  --log                  structured request logs on stdout
  --tls                  serve HTTPS with a private CA made for its address (its CA file is printed:
                         give it to the client with NODE_EXTRA_CA_CERTS or profile set --ca-file)
`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      port: { type: 'string' },
      'auth-port': { type: 'string' },
      host: { type: 'string' },
      'batch-interval': { type: 'string' },
      'rate-limit': { type: 'string' },
      'token-lifetime': { type: 'string' },
      tls: { type: 'boolean' },
      faults: { type: 'string' },
      log: { type: 'boolean' },
      name: { type: 'string' },
      'require-signature': { type: 'boolean' },
      'require-api-key': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void process.stdout.write(USAGE);
  const [command = 'serve', sub] = positionals;
  const dbPath = values.db ?? DEFAULT_CONFIG.dbPath;

  if (command === 'clients') {
    const db = openSandboxDb(dbPath);
    try {
      if (sub === 'create') {
        const created = createClient(db, {
          name: values.name,
          requireSignature: values['require-signature'],
          requireApiKey: values['require-api-key'],
        });
        process.stdout.write(
          `${JSON.stringify(created, null, 2)}\nThe secrets are shown once: the sandbox keeps only their digests.\n`,
        );
      } else if (sub === 'list') {
        for (const c of listClients(db)) {
          process.stdout.write(
            `${c.clientId}\t${c.name}\tsignature ${c.requireSignature ? 'required' : 'optional'}\tapi key ${c.requireApiKey ? 'required' : 'optional'}\n`,
          );
        }
      } else {
        throw new UsageError(`Unknown clients command "${sub ?? ''}"; use "create" or "list".`);
      }
    } finally {
      db.close();
    }
    return;
  }
  if (command !== 'serve') throw new UsageError(`Unknown command "${command}".`);

  const faults: Partial<Faults> = values.faults ? parseFaults(values.faults) : {};
  if (values['token-lifetime'])
    faults.tokenLifetimeSeconds = integer('--token-lifetime', values['token-lifetime']);
  const host = values.host ?? DEFAULT_CONFIG.host;
  const certificates = values.tls
    ? makeLocalCertificates(join(dirname(dbPath === ':memory:' ? DEFAULT_CONFIG.dbPath : dbPath), 'tls'), [
        host,
        'localhost',
      ])
    : null;
  const sandbox = await startSandbox({
    tls: certificates
      ? { cert: readFileSync(certificates.certFile, 'utf8'), key: readFileSync(certificates.keyFile, 'utf8') }
      : undefined,
    dbPath,
    host,
    port: values.port ? integer('--port', values.port) : DEFAULT_CONFIG.port,
    authPort: values['auth-port'] ? integer('--auth-port', values['auth-port']) : undefined,
    batchIntervalMs: values['batch-interval']
      ? integer('--batch-interval', values['batch-interval'])
      : DEFAULT_CONFIG.batchIntervalMs,
    rateLimit: values['rate-limit'] ? parseRateLimit(values['rate-limit']) : DEFAULT_CONFIG.rateLimit,
    logRequests: values.log ?? false,
    faults,
  });
  // Listening for Ctrl+C before saying "Press Ctrl+C": a signal sent the moment it is read stops
  // the sandbox cleanly (before, a loaded machine could deliver it first and kill it with 143).
  const stop = () => {
    sandbox.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const demo = sandbox.demoClient;
  process.stdout.write(
    [
      'Evidence Certification Service sandbox is running. Its certifications carry no legal weight.',
      `  base URL       ${sandbox.baseUrl}`,
      `  token URL      ${sandbox.tokenUrl}`,
      `  public key     ${sandbox.baseUrl}/v1/log/public-key`,
      `  database       ${dbPath}`,
      ...(certificates
        ? [`  CA file        ${certificates.caFile} (trust it: NODE_EXTRA_CA_CERTS or --ca-file)`]
        : []),
      'Demo client:',
      `  client_id      ${demo.clientId}`,
      `  client_secret  ${demo.clientSecret}`,
      `  X-API-Key      ${demo.apiKey}`,
      `  X-API-Secret   ${demo.apiSecret}`,
      `  HMAC key       ${demo.hmacKey}`,
      `Admin token (X-Sandbox-Admin-Token for /_sandbox/*): ${sandbox.adminToken}`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
}

function integer(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new UsageError(`${flag} takes a whole number, not "${text}".`);
  return value;
}

function parseRateLimit(text: string): { max: number; windowMs: number } {
  const [max, windowMs] = text.split('/');
  if (!max || !windowMs)
    throw new UsageError(`--rate-limit takes REQUESTS/MILLISECONDS, like 1000/10000, not "${text}".`);
  return { max: integer('--rate-limit', max), windowMs: integer('--rate-limit', windowMs) };
}

function parseFaults(text: string): Partial<Faults> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`--faults takes a JSON object, like '{"errorRate":0.2}'.`);
  }
  const result = faultsSchema.partial().safeParse(json);
  if (!result.success)
    throw new UsageError(
      `--faults: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return result.data;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const usage =
    error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  process.stderr.write(
    `sandbox: ${(error as Error).message}\n${usage ? '\nRun with --help for usage.\n' : ''}`,
  );
  process.exitCode = usage ? 2 : 1;
});
