// evidence-desk: the command-line shell on the core, for automation and headless machines.
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { progressPrinter } from './cli/progress';
import { promptSecrets } from './cli/prompt';
import { PROFILE_KINDS, serviceProfileSchema } from './config/profiles';
import type { ServiceProfile } from './config/profiles';
import { defaultDataDir } from './config/data-dir';
import { EvidenceCore } from './core';
import { DeskError, isDeskError } from './errors';
import type { LocalState } from './store/states';
import { LOCAL_STATES } from './store/states';
import { KeychainSecretStore } from './secrets/secret-store';
import type { SecretName } from './secrets/secret-store';

const USAGE = `Usage: evidence-desk <command> [options]

Commands:
  certify PATH... --event-type TYPE --asset-type TYPE [--source-system NAME] [--wait]
                        hash files (folders expand) locally and queue their certification
  sync [--wait]         send what is queued; with --wait, until every certification settles
  status [--list] [--state STATE] [--search TEXT] [--limit N]
                        counts by state, connectivity, and optionally the rows
  verify FILE           hash FILE and check, offline, the evidence of its certifications
  profile show | use ID | test [ID]
  profile set --id ID --kind KIND --base-url URL --token-url URL --client-id ID [--api-key KEY] [--sign]
                        secrets are asked for (no echo), or read one per line from a pipe
  sandbox [...]         run the local sandbox service (see: evidence-desk sandbox --help)

Options for every command:
  --data-dir DIR        where the queue lives (default: the app's data folder; EVIDENCE_DESK_DATA_DIR)
  --json                machine-readable output on stdout
  -h, --help

Exit codes: 0 done; 1 something failed (a file, a certification, a verification);
2 bad arguments; 3 the queue, keychain or service cannot be used; 4 timed out waiting.
`;

const EXIT = { ok: 0, failed: 1, usage: 2, environment: 3, timeout: 4 } as const;

class UsageError extends Error {}

const OPTIONS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  wait: { type: 'boolean' },
  'event-type': { type: 'string' },
  'asset-type': { type: 'string' },
  'source-system': { type: 'string' },
  list: { type: 'boolean' },
  state: { type: 'string', multiple: true },
  search: { type: 'string' },
  limit: { type: 'string' },
  id: { type: 'string' },
  kind: { type: 'string' },
  'base-url': { type: 'string' },
  'token-url': { type: 'string' },
  'client-id': { type: 'string' },
  'api-key': { type: 'string' },
  sign: { type: 'boolean' },
} satisfies ParseArgsConfig['options'];

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

async function main(argv: string[]): Promise<number | undefined> {
  if (argv[0] === 'sandbox') {
    // The sandbox's own command line takes over, exit code included.
    process.argv = [process.argv[0] as string, 'sandbox', ...argv.slice(1)];
    await import('../sandbox/cli');
    return undefined;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? EXIT.ok : EXIT.usage;
  }
  if (!['certify', 'sync', 'status', 'verify', 'profile'].includes(command))
    throw new UsageError(`Unknown command "${command}".`);
  if (command === 'certify' && rest.length === 0)
    throw new UsageError('certify needs at least one file or folder.');
  if (command === 'certify' && (!values['event-type'] || !values['asset-type']))
    throw new UsageError('certify needs --event-type and --asset-type.');
  if (command === 'verify' && rest.length !== 1) throw new UsageError('verify takes exactly one file.');

  const syncs = command === 'certify' || command === 'sync';
  const core = await EvidenceCore.open({
    dataDir: values['data-dir'] ?? defaultDataDir(),
    secrets: new KeychainSecretStore(),
    sync: syncs,
  });
  const stopOnSignal = () => void core.close().then(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  try {
    switch (command) {
      case 'certify':
        return await certify(core, rest, values);
      case 'sync':
        return await sync(core, values);
      case 'status':
        return status(core, values);
      case 'verify':
        return await verify(core, rest[0] as string, values);
      default:
        return await profile(core, rest, values);
    }
  } finally {
    process.off('SIGINT', stopOnSignal);
    await core.close();
  }
}

async function certify(core: EvidenceCore, paths: string[], values: Values): Promise<number> {
  core.on('progress', progressPrinter());
  const report = await core
    .certify(paths, {
      event_type: values['event-type'],
      asset_type: values['asset-type'],
      source_system: values['source-system'] ?? 'evidence-desk',
    })
    .catch((error: unknown) => {
      if (isDeskError(error) && error.code === 'invalid_metadata') throw new UsageError(error.message);
      throw error;
    });
  for (const problem of report.problems)
    process.stderr.write(`skipped ${problem.path}: ${problem.message} [${problem.code}]\n`);
  if (!values.json)
    process.stderr.write(
      `queued ${report.queued.length} file(s); ${report.problems.length} could not be certified\n`,
    );
  const ids = report.queued.map((row) => row.id);
  const rows = values.wait ? await core.waitUntilSettled(ids) : await sentOrWaiting(core, ids);
  const failed = rows.filter((row) => row.state === 'failed' || row.verification === 'invalid');
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ certifications: rows.map(publicRow), problems: report.problems }, null, 2)}\n`,
    );
  } else {
    for (const row of rows)
      process.stdout.write(
        `${row.state.padEnd(10)} ${row.assetHash.slice(0, 12)}  ${row.filePath}${row.errorMessage && row.state === 'failed' ? `  (${row.errorMessage})` : ''}\n`,
      );
  }
  return failed.length > 0 || report.problems.length > 0 ? EXIT.failed : EXIT.ok;
}

/** Without --wait, give the engine a moment to send what it can, then report where each stands. */
async function sentOrWaiting(core: EvidenceCore, ids: number[]) {
  const deadline = Date.now() + 10_000;
  const sent = () =>
    ids.every((id) => core.store.get(id)?.state !== 'queued' && core.store.get(id)?.state !== 'submitting');
  while (!sent() && Date.now() < deadline && core.status().connectivity.state !== 'offline') {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return ids.map((id) => core.store.get(id)).filter((row) => row !== undefined);
}

async function sync(core: EvidenceCore, values: Values): Promise<number> {
  const waiting = core
    .list({ states: ['queued', 'submitting', 'pending'], limit: 1_000_000 })
    .map((row) => row.id);
  const rows = values.wait ? await core.waitUntilSettled(waiting) : await sentOrWaiting(core, waiting);
  const counts = core.status().counts;
  if (values.json) process.stdout.write(`${JSON.stringify({ counts, settled: rows.length }, null, 2)}\n`);
  else process.stdout.write(`${describeCounts(counts)}\n`);
  return rows.some((row) => row.state === 'failed') ? EXIT.failed : EXIT.ok;
}

function status(core: EvidenceCore, values: Values): number {
  const current = core.status();
  const states = (values.state ?? []).map((state) => {
    if (!LOCAL_STATES.includes(state as LocalState))
      throw new UsageError(`--state takes one of ${LOCAL_STATES.join(', ')}.`);
    return state as LocalState;
  });
  const limit = values.limit ? Number(values.limit) : 50;
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit takes a whole number above 0.');
  const rows =
    values.list || states.length || values.search ? core.list({ states, search: values.search, limit }) : [];
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ...current, certifications: rows.map(publicRow) }, null, 2)}\n`);
    return EXIT.ok;
  }
  process.stdout.write(
    `profile: ${current.profile.id}${current.profile.demo ? ' (demo — no legal weight)' : ''}\n${describeCounts(current.counts)}\n`,
  );
  for (const row of rows)
    process.stdout.write(
      `${String(row.id).padStart(6)} ${row.state.padEnd(10)} ${row.assetHash.slice(0, 12)}  ${row.fileName}\n`,
    );
  return EXIT.ok;
}

async function verify(core: EvidenceCore, path: string, values: Values): Promise<number> {
  const result = await core.verifyFile(path);
  const verified = result.certifications.some((c) => c.check.verification === 'verified');
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ path, asset_hash: result.assetHash, verified, certifications: result.certifications.map((c) => ({ ...publicRow(c.row), check: c.check })) }, null, 2)}\n`,
    );
  } else if (result.certifications.length === 0) {
    process.stdout.write(
      `${path}\nsha256 ${result.assetHash}\nNo certification of this exact file is in the queue.\n`,
    );
  } else {
    process.stdout.write(`${path}\nsha256 ${result.assetHash}\n`);
    for (const { row, check } of result.certifications)
      process.stdout.write(`  ${row.state}: ${check.message}\n`);
  }
  return verified ? EXIT.ok : EXIT.failed;
}

async function profile(core: EvidenceCore, args: string[], values: Values): Promise<number> {
  const [action, id] = args;
  if (action === 'show') {
    const active = core.activeProfileId;
    const settings = core.readProfile(active);
    const secrets = settings ? await core.secretsSet(active) : undefined;
    process.stdout.write(
      `${JSON.stringify({ active, settings: settings ?? null, secretsSet: secrets ?? null }, null, 2)}\n`,
    );
    return EXIT.ok;
  }
  if (action === 'use') {
    if (!id) throw new UsageError('profile use needs a profile id (or "embedded").');
    await core.useProfile(id);
    process.stdout.write(`now using ${id}\n`);
    return EXIT.ok;
  }
  if (action === 'test') {
    const result = await core.testConnection(id ?? core.activeProfileId);
    if (values.json)
      process.stdout.write(
        `${JSON.stringify(result.ok ? { ok: true, ...result.value } : { ok: false, code: result.code, message: result.message })}\n`,
      );
    else
      process.stdout.write(
        result.ok
          ? `Connected: a token was issued (valid ${result.value.expiresInSeconds} s).\n`
          : `Not connected: ${result.message}\n`,
      );
    return result.ok ? EXIT.ok : EXIT.environment;
  }
  if (action === 'set') return setProfile(core, values);
  throw new UsageError('profile takes show, use ID, test [ID] or set.');
}

async function setProfile(core: EvidenceCore, values: Values): Promise<number> {
  const kind = values.kind ?? 'custom';
  if (!(PROFILE_KINDS as readonly string[]).includes(kind) || kind === 'embedded')
    throw new UsageError('--kind takes service-sandbox, production or custom.');
  const settings = {
    id: values.id,
    kind,
    baseUrl: values['base-url'],
    tokenUrl: values['token-url'],
    clientId: values['client-id'],
    apiKey: values['api-key'],
    signRequests: values.sign ?? false,
  };
  const parsed = serviceProfileSchema.safeParse(settings);
  if (!parsed.success)
    throw new UsageError(
      parsed.error.issues
        .map((i) => `--${String(i.path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${i.message}`)
        .join('; '),
    );
  const asked: SecretName[] = [
    'client_secret',
    ...(parsed.data.apiKey ? (['api_secret'] as const) : []),
    ...(parsed.data.signRequests ? (['hmac_key'] as const) : []),
  ];
  const answers = await promptSecrets(asked.map((name) => `${name.replace('_', ' ')}: `));
  const secrets = Object.fromEntries(asked.map((name, i) => [name, answers[i] as string]));
  await core.saveProfile(parsed.data as ServiceProfile, secrets);
  process.stdout.write(`saved profile ${parsed.data.id}; its secrets are in the system keychain\n`);
  return EXIT.ok;
}

function describeCounts(counts: Record<LocalState, number>): string {
  return LOCAL_STATES.map((state) => `${state} ${counts[state]}`).join(', ');
}

/** A row as automation sees it: no internals, nothing secret (there is nothing secret in a row). */
function publicRow(row: ReturnType<EvidenceCore['list']>[number]) {
  return {
    id: row.id,
    file: row.filePath,
    asset_hash: row.assetHash,
    event_type: row.eventType,
    state: row.state,
    request_id: row.requestId,
    service_id: row.serviceId,
    verification: row.verification,
    error: row.errorMessage,
  };
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    const usage =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const timeout = isDeskError(error) && error.code === 'timeout';
    process.stderr.write(
      `evidence-desk: ${(error as Error).message}\n${usage ? 'Run evidence-desk --help for usage.\n' : ''}`,
    );
    process.exitCode = usage
      ? EXIT.usage
      : timeout
        ? EXIT.timeout
        : error instanceof DeskError
          ? EXIT.environment
          : EXIT.failed;
  },
);
