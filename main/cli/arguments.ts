import type { LocalState } from '../../protocol/states';
import { LOCAL_STATES } from '../../protocol/states';
import type { ParseArgsConfig, parseArgs } from 'node:util';
import type { EvidenceSelection } from '../../protocol/views';
import { WELL_KNOWN_TSAS } from '../../protocol/profiles';

export const USAGE = `Usage: evidence-desk <command> [options]

Commands:
  certify PATH... --event-type TYPE --asset-type TYPE [--source-system NAME] [--matter M] [--again]
                [--wait [--timeout S]]
                        hash files (folders expand) locally and queue their certification;
                        the matter (case or client-matter number) stays on this computer;
                        content already certified here is named and skipped, unless --again
  sync [--wait [--timeout S]]
                        send what is queued; with --wait, until every certification settles
                        (progress on stderr; gives up waiting after S seconds, default 600: exit 4)
  status [--list] [--state STATE] [--search TEXT] [--matter M] [--limit N]
                        counts by state and by matter, connectivity, and optionally the rows
  verify FILE [--receipt RECEIPT.json | --certificate CERTIFICATE.pdf] [--log-key FINGERPRINT|KEY.pem]
              [--tsa-root FINGERPRINT|ROOT.pem]
                        hash FILE and check it, offline: against its receipt or certificate (no
                        queue needed; trusted log key: --log-key, or the one pinned here; trusted
                        timestamping root: --tsa-root, or those of tokens kept here), or else
                        against the certifications of it in this queue
  export --out DIR [--zip FILE] [--state S] [--search TEXT] [--matter M] [--ids 1,2,3] [--receipts-only]
                        write the evidence kit for the chosen certifications: a receipt and a
                        certificate each, the register, verify.html, the log key and a README
  export --csv FILE [--state S] [--search TEXT] [--matter M] [--ids 1,2,3]
                        write the chain-of-custody register for Excel (UTF-8 CSV): who certified
                        what, when, every state change, and every removal
  config [receipts-beside-files on|off]
                        show or change a preference: a receipt written beside each certified file
                        once it is anchored (off unless chosen)
  profile show | use ID | test [ID] | trust-key FINGERPRINT
  profile set --id ID --kind KIND --base-url URL --token-url URL --client-id ID [--api-key KEY] [--sign]
              [--log-key FINGERPRINT|KEY.pem] [--ca-file CA.pem]
              [--tsa-url URL --tsa-ca ROOTS.pem [--tsa-policy OID]] [--use]
                        secrets are asked for (no echo), or read one per line from a pipe;
                        --tsa-url names the timestamping authority (RFC 3161) that confirms each
                        batch's time, --tsa-ca the root certificate(s) it must chain to. Public
                        authorities (addresses only; get their roots from them): ${WELL_KNOWN_TSAS.map((tsa) => tsa.url).join(', ')}
  sandbox [...]         run the local sandbox service (see: evidence-desk sandbox --help)

Options for every command:
  --data-dir DIR        where the queue lives (default: the app's data folder; EVIDENCE_DESK_DATA_DIR)
  --json                machine-readable output on stdout

Networks: HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured; certificates are checked against the
system's store, NODE_EXTRA_CA_CERTS and the profile's --ca-file.
  -h, --help

Exit codes: 0 done; 1 something failed (a file, a certification, a verification);
2 bad arguments; 3 the queue, keychain or service cannot be used; 4 timed out waiting.
`;

export const EXIT = { ok: 0, failed: 1, usage: 2, environment: 3, timeout: 4 } as const;

export const COMMANDS = ['certify', 'sync', 'status', 'verify', 'profile', 'export', 'config'] as const;
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
  'log-key': { type: 'string', multiple: true },
  'tsa-root': { type: 'string', multiple: true },
  'tsa-url': { type: 'string' },
  'tsa-policy': { type: 'string' },
  'tsa-ca': { type: 'string' },
  out: { type: 'string' },
  ids: { type: 'string' },
  matter: { type: 'string' },
  use: { type: 'boolean' },
  timeout: { type: 'string' },
  csv: { type: 'string' },
  again: { type: 'boolean' },
  'ca-file': { type: 'string' },
} satisfies ParseArgsConfig['options'];

export type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

/** Checks what each command needs before anything is opened, so a typo never touches the queue. */
export function checkArguments(command: string, rest: string[], values: Values): CommandName {
  if (!(COMMANDS as readonly string[]).includes(command))
    throw new UsageError(`Unknown command "${command}".`);
  if (command === 'certify' && rest.length === 0)
    throw new UsageError('certify needs at least one file or folder.');
  if (command === 'certify' && (!values['event-type'] || !values['asset-type']))
    throw new UsageError('certify needs --event-type and --asset-type.');
  if (command === 'verify' && rest.length !== 1) throw new UsageError('verify takes exactly one file.');
  if (command === 'export' && !values.out && !values.zip && !values.csv)
    throw new UsageError('export needs --out DIR, --zip FILE or --csv FILE.');
  if (values.receipt && values.certificate)
    throw new UsageError('verify takes --receipt or --certificate, not both.');
  return command as CommandName;
}

/** The certifications an export names: chosen ids, or everything the filters match. */
export function selectionOf(values: Values): EvidenceSelection {
  if (values.ids) return { ids: idsOf(values.ids) };
  return { states: statesOf(values), search: values.search, matter: values.matter };
}

function idsOf(text: string): number[] {
  const ids = text.split(',').map((part) => Number(part.trim()));
  if (ids.some((id) => !Number.isInteger(id) || id < 1))
    throw new UsageError('--ids takes whole numbers separated by commas.');
  return ids;
}

/** --timeout in milliseconds: how long --wait waits for anchoring (10 minutes unless given). */
export function waitTimeoutOf(values: Values): number {
  if (values.timeout === undefined) return 10 * 60_000;
  const seconds = Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError('--timeout takes a number of seconds above 0.');
  return seconds * 1000;
}

/** --state, checked: each one of the local states. */
export function statesOf(values: Values): LocalState[] {
  return (values.state ?? []).map((state) => {
    if (!LOCAL_STATES.includes(state as LocalState))
      throw new UsageError(`--state takes one of ${LOCAL_STATES.join(', ')}.`);
    return state as LocalState;
  });
}
