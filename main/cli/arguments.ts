import type { LocalState } from '../../protocol/states';
import { LOCAL_STATES } from '../../protocol/states';
import type { ParseArgsConfig, parseArgs } from 'node:util';
import type { EvidenceSelection } from '../../protocol/views';
import { WELL_KNOWN_TSAS } from '../../protocol/profiles';
import { words } from './language';

/** The help text, in the command line's language. */
export const usage = (): string =>
  words('usage', {
    authorities: WELL_KNOWN_TSAS.map((tsa) =>
      tsa.minIntervalSeconds ? `${tsa.url} (${tsa.minIntervalSeconds} s)` : tsa.url,
    ).join(', '),
  });

export const EXIT = { ok: 0, failed: 1, usage: 2, environment: 3, timeout: 4 } as const;

export const COMMANDS = [
  'certify',
  'sync',
  'status',
  'verify',
  'profile',
  'export',
  'config',
  'watch',
  'renew',
] as const;
export type CommandName = (typeof COMMANDS)[number];

/** Bad arguments: exit 2 with usage help. */
export class UsageError extends Error {}

export const OPTIONS = {
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
  receipt: { type: 'string' },
  certificate: { type: 'string' },
  zip: { type: 'string' },
  'receipts-only': { type: 'boolean' },
  unsealed: { type: 'boolean' },
  'log-key': { type: 'string', multiple: true },
  'tsa-root': { type: 'string', multiple: true },
  'trust-kit': { type: 'boolean' },
  'tsa-url': { type: 'string' },
  'tsa-policy': { type: 'string' },
  'tsa-ca': { type: 'string' },
  'tsa-interval': { type: 'string' },
  out: { type: 'string' },
  ids: { type: 'string' },
  matter: { type: 'string' },
  use: { type: 'boolean' },
  timeout: { type: 'string' },
  csv: { type: 'string' },
  again: { type: 'boolean' },
  'ca-file': { type: 'string' },
  against: { type: 'string' },
  report: { type: 'string' },
  'path-field': { type: 'string' },
  'hash-field': { type: 'string' },
  include: { type: 'string' },
  'receipts-beside': { type: 'boolean' },
  'no-subfolders': { type: 'boolean' },
  poll: { type: 'string' },
  events: { type: 'boolean' },
  settle: { type: 'string' },
  'dry-run': { type: 'boolean' },
  documents: { type: 'string', multiple: true },
} satisfies ParseArgsConfig['options'];

export type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

/** Checks what each command needs before anything is opened, so a typo never touches the queue. */
export function checkArguments(command: string, rest: string[], values: Values): CommandName {
  if (!(COMMANDS as readonly string[]).includes(command))
    throw new UsageError(words('usageErrors.unknownCommand', { command }));
  if (command === 'certify' && rest.length === 0)
    throw new UsageError(words('usageErrors.certifyNeedsPaths'));
  if (command === 'certify' && (!values['event-type'] || !values['asset-type']))
    throw new UsageError(words('usageErrors.certifyNeedsTypes'));
  if (command === 'verify' && rest.length === 0) throw new UsageError(words('usageErrors.verifyOneFile'));
  if (command === 'verify' && rest.length > 1 && (values.receipt || values.certificate))
    throw new UsageError(words('usageErrors.verifyOneFile'));
  if (command === 'export' && !values.out && !values.zip && !values.csv)
    throw new UsageError(words('usageErrors.exportNeedsTarget'));
  if (values.receipt && values.certificate) throw new UsageError(words('usageErrors.receiptOrCertificate'));
  if (command === 'watch') checkWatch(rest, values);
  return command as CommandName;
}

/** `watch`, `watch list`, `watch add FOLDER --event-type T --asset-type A`, `watch remove|pause|resume FOLDER`. */
function checkWatch([action, target, ...more]: string[], values: Values): void {
  const needsFolder = ['add', 'remove', 'pause', 'resume'];
  if (action !== undefined && action !== 'list' && !needsFolder.includes(action))
    throw new UsageError(words('usageErrors.watch'));
  if (more.length || (needsFolder.includes(action ?? '') && !target) || (action === 'list' && target))
    throw new UsageError(words('usageErrors.watch'));
  if (action === 'add' && (!values['event-type'] || !values['asset-type']))
    throw new UsageError(words('usageErrors.watchNeedsTypes'));
}

/** The certifications an export names: chosen ids, or everything the filters match. */
export function selectionOf(values: Values): EvidenceSelection {
  if (values.ids) return { ids: idsOf(values.ids) };
  return { states: statesOf(values), search: values.search, matter: values.matter };
}

function idsOf(text: string): number[] {
  const ids = text.split(',').map((part) => Number(part.trim()));
  if (ids.some((id) => !Number.isInteger(id) || id < 1)) throw new UsageError(words('usageErrors.ids'));
  return ids;
}

/** --timeout in milliseconds: how long --wait waits for anchoring (10 minutes unless given). */
export function waitTimeoutOf(values: Values): number {
  if (values.timeout === undefined) return 10 * 60_000;
  const seconds = Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(words('usageErrors.timeout'));
  return seconds * 1000;
}

/** --state, checked: each one of the local states. */
export function statesOf(values: Values): LocalState[] {
  return (values.state ?? []).map((state) => {
    if (!LOCAL_STATES.includes(state as LocalState))
      throw new UsageError(words('usageErrors.state', { states: LOCAL_STATES.join(', ') }));
    return state as LocalState;
  });
}
