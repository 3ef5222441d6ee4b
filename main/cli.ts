// evidence-desk: the command-line shell on the core, for automation and headless machines.
// This module only exports it: cli-entry.ts runs it as a program, the installed app with --cli.
import { commandLineFetch } from './service/network';
import { parseArgs } from 'node:util';
import { KeychainSecretStore } from './secrets/secret-store';
import { defaultDataDir } from './config/data-dir';
import { EvidenceCore } from './core';
import { DeskError, isDeskError } from './errors';
import { FILE_PROBLEM_CODES } from '../protocol/errors';
import type { CommandName, Values } from './cli/arguments';
import { EXIT, OPTIONS, UsageError, checkArguments, usage } from './cli/arguments';
import { certify } from './cli/commands/certify';
import { config } from './cli/commands/config';
import { exportKit } from './cli/commands/export';
import { profile } from './cli/commands/profile';
import { status } from './cli/commands/status';
import { sync } from './cli/commands/sync';
import { verify } from './cli/commands/verify';
import { verifyAgainstReceipt } from './cli/commands/verify-receipt';
import { verifySetCommand } from './cli/commands/verify-set';
import { watch } from './cli/commands/watch';
import { renew } from './cli/commands/renew';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SetVerification } from './sets/set-verification';
import { err, outJson } from './cli/output';
import { say, words } from './cli/language';

const RUN: Record<
  CommandName,
  (core: EvidenceCore, rest: string[], values: Values) => Promise<number> | number
> = {
  certify: (core, rest, values) => certify(core, rest, values),
  sync: (core, _rest, values) => sync(core, values),
  status: (core, _rest, values) => status(core, values),
  verify: (core, rest, values) =>
    isSetVerification(rest, values)
      ? verifySetCommand(
          {
            verifySet: (paths, against, onProgress) => core.sets.verifySet(paths, against, onProgress),
            saveSetReport: (report, path) => core.sets.saveReport(report, path),
          },
          rest,
          values,
        )
      : verify(core, rest[0] as string, values),
  profile: (core, rest, values) => profile(core, rest, values),
  export: (core, _rest, values) => exportKit(core, values),
  config: (core, rest, values) => config(core, rest, values),
  watch: (core, rest, values) => watch(core, rest, values),
  renew: (core, _rest, values) => renew(core, values),
};

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
    process.stdout.write(usage());
    return command || values.help ? EXIT.ok : EXIT.usage;
  }
  const name = checkArguments(command, rest, values);
  const dataDir = values['data-dir'] ?? defaultDataDir();
  // A receipt is checked with nothing but the file, the receipt and the trusted keys: no queue opened.
  if (name === 'verify' && (values.receipt || values.certificate))
    return verifyAgainstReceipt(rest[0] as string, values, dataDir);
  // The other side's computer: a set checked on a data folder never used leaves nothing behind.
  if (name === 'verify' && isSetVerification(rest, values) && !existsSync(join(dataDir, 'queue.sqlite')))
    return verifySetCommand(
      { verifySet: SetVerification.checkSetAlone, saveSetReport: SetVerification.saveReportAlone },
      rest,
      values,
    );
  // `watch` alone watches in the foreground, sending what it certifies, until a signal.
  const watching = name === 'watch' && rest.length === 0;
  const core = await EvidenceCore.open({
    dataDir,
    secrets: new KeychainSecretStore(),
    sync: name === 'certify' || name === 'sync' || (name === 'renew' && !values['dry-run']) || watching,
    watch: watching,
    sender: 'command-line',
    // `renew` looks itself, with the folders it was given: the background's look would take part of its work.
    ...(name === 'renew' ? { renewal: { lookInBackground: false } } : {}),
    // HTTPS_PROXY / NO_PROXY, the OS certificate store, NODE_EXTRA_CA_CERTS and the profile's CA file.
    networkFor: (profile) => commandLineFetch({ caFile: profile.caFile }),
    // Loaded only when the demo sandbox is the profile in use: a service profile's CLI starts without it.
    startEmbedded: async (dbPath) => (await import('../sandbox/embedded')).embeddedSandbox()(dbPath),
  });
  const stopOnSignal = () => void core.close().then(() => process.exit(130));
  // Watching stops on a signal by design, cleanly and with exit 0; everything else is interrupted.
  if (!watching) process.once('SIGINT', stopOnSignal);
  try {
    return await RUN[name](core, rest, values);
  } finally {
    process.off('SIGINT', stopOnSignal);
    await core.close();
  }
}

/** A set, not one file: a reference named, several paths, or a folder. */
function isSetVerification(paths: string[], values: Values): boolean {
  if (values.against || paths.length > 1) return true;
  try {
    return statSync(paths[0] as string).isDirectory();
  } catch {
    return false;
  }
}

const isParseError = (error: unknown) =>
  (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true;

/** Node's words for an option it does not know, said as ours (its own name the hint for a positional '-'). */
function wordsForParseError(error: unknown, message: string): string {
  const option = /^Unknown option '([^']+)'/.exec(message)?.[1];
  return (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option
    ? words('usageErrors.unknownOption', { option })
    : message;
}

function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError || isParseError(error)) return EXIT.usage;
  if (isDeskError(error) && error.code === 'timeout') return EXIT.timeout;
  // A reference that cannot be read is a wrong argument: where and why are said.
  if (isDeskError(error) && error.code === 'invalid_reference') return EXIT.usage;
  // A file that cannot be read is that file's failure, not the environment's.
  if (isDeskError(error) && (FILE_PROBLEM_CODES as readonly string[]).includes(error.code))
    return EXIT.failed;
  return error instanceof DeskError ? EXIT.environment : EXIT.failed;
}

function errorCodeOf(error: unknown, exitCode: number): string {
  if (isDeskError(error)) return error.code;
  return exitCode === EXIT.usage ? 'usage' : 'internal_error';
}

let pipesWatched = false;

/**
 * One command line (the arguments after the program's name), everything printed; resolves with
 * the exit code, or undefined when the command runs on (the sandbox). The package's `evidence-desk`
 * (cli-entry.ts) and the installed app's `--cli` both run it.
 */
export function runCommandLine(argv: string[]): Promise<number | undefined> {
  // A reader that stops early (| head) closes the pipe: what is left to print has nobody to read it.
  // The command ends as Unix tools do on SIGPIPE (128 + 13), so a script never takes it for a pass.
  if (!pipesWatched)
    for (const stream of [process.stdout, process.stderr])
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE') process.exit(141);
        throw error;
      });
  pipesWatched = true;
  // A command whose work stopped waiting on something that can never come would end with nothing
  // printed and exit 0, as if it had passed: it says so, and fails.
  let settled = false;
  process.once('beforeExit', () => {
    if (settled) return;
    err(`evidence-desk: ${words('stoppedUnfinished')}`);
    process.exitCode = EXIT.failed;
  });
  return main(argv)
    .finally(() => (settled = true))
    .then(
      (code) => code,
      (error: unknown) => {
        const code = exitCodeOf(error);
        const message = (error as Error).message;
        // Automation asked for JSON: the error is JSON on stdout too, with a stable code.
        if (argv.includes('--json'))
          outJson({ error: { code: errorCodeOf(error, code), message }, exit_code: code });
        // Help is offered for a mistake in the command itself, not for a file it was given that was refused.
        const misTyped = error instanceof UsageError || isParseError(error);
        err(
          `evidence-desk: ${isDeskError(error) ? say(error.said) : wordsForParseError(error, message)}${misTyped ? `\n${words('runHelp')}` : ''}`,
        );
        return code;
      },
    );
}
