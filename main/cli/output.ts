import { ENVIRONMENT_LABELS } from '../../protocol/profiles';
import { unknownServiceWord } from '../../protocol/service-states';
import { LOCAL_STATES } from '../../protocol/states';
import type { StateCounts } from '../../protocol/states';
import type { CertificationRow } from '../../protocol/views';
import { isSendingBlocked } from '../../protocol/views';
import type { EvidenceCore } from '../core';
import type { Values } from './arguments';
import { inEnglish } from '../../protocol/locales';
import type { Said } from '../../protocol/said';
import { localWithZone, utcIso } from '../../protocol/time-format';
import { peopleLocale, say, words } from './language';
import { en } from '../../protocol/locales/en';

/** What the core said, in the command line's language; nothing when it said nothing. */
export const sayOrNothing = (saying: Said | null): string => (saying ? say(saying) : '');

/** `--json` is read by scripts: its sentences are English whatever the language, beside stable codes. */
export const englishOrNull = (saying: Said | null): string | null => (saying ? inEnglish(saying) : null);

/** "1 file", "3 Dateien": counted things in the command line's language. */
export const count = (n: number, noun: 'files' | 'certifications' | 'rootCertificates') =>
  words(noun, { count: n });

/**
 * Results go to stdout (JSON for machines), progress and problems to stderr. Every text passes
 * terminalSafe on its way out: names, zip entries and load-file values come from the other side,
 * and must not clear the screen, print a false PASSED in green, or set the window's title.
 */
export const out = (text: string) => process.stdout.write(`${terminalSafe(text)}\n`);
export const err = (text: string) => process.stderr.write(`${terminalSafe(text)}\n`);
export const outJson = (value: unknown) =>
  process.stdout.write(`${jsonSafe(JSON.stringify(value, null, 2))}\n`);

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
// C0 controls but the line break, DEL, C1 controls (0x9b is a one-byte CSI), and the
// bidirectional marks, overrides and isolates that reorder what follows them.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const BIDI_OR_C1 = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const hex4 = (c: string) => c.charCodeAt(0).toString(16).padStart(4, '0');

/** Text with every control and direction character written as a visible escape (\x1b, \u202e). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) =>
    c < '\u007f' ? (ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`) : `\\u${hex4(c)}`,
  );
}

/** JSON whose strings escape what JSON.stringify leaves raw (DEL, C1, direction marks): still the same JSON. */
const jsonSafe = (json: string): string => json.replace(BIDI_OR_C1, (c) => `\\u${hex4(c)}`);

/**
 * A file name or path as one readable line: a newline in a name would look like a second entry,
 * so it is written \n, like every other control character (terminalSafe does the rest).
 */
export const printable = (text: string): string => terminalSafe(text.replaceAll('\n', '\\n'));

/** Where a certification stands, in words: an anchored one says whether its evidence verified. */
export function describeRow(row: CertificationRow): string {
  return stateOfRow(row) + timeOfRow(row);
}

/** Independent time (RFC 3161), when the profile asks for it: who confirmed it and when, or why not yet. */
function timeOfRow(row: CertificationRow): string {
  if (row.timestampState === 'confirmed' && row.timeConfirmedAt !== null)
    return (
      words('row.timeConfirmed', {
        when: localWithZone(row.timeConfirmedAt, { locale: peopleLocale }),
        authority: printable(row.timeConfirmedBy ?? ''),
      }) + (row.timestampProblem ? `. ${say(row.timestampProblem)}` : '')
    );
  if (row.timestampState === 'waiting')
    return row.timestampProblem
      ? words('row.timeNotYet', { reason: say(row.timestampProblem) })
      : words('row.timeAsked');
  return '';
}

function stateOfRow(row: CertificationRow): string {
  if (row.state === 'failed')
    return words('row.failed', { reason: row.errorMessage ? say(row.errorMessage) : words('row.noReason') });
  if (row.state === 'pending') {
    const unknown = unknownServiceWord(row.serviceState);
    const pending = unknown ? words('row.pendingService', { service: unknown }) : words('row.pending');
    return row.errorMessage
      ? words('row.lastLook', { state: pending, reason: say(row.errorMessage) })
      : pending;
  }
  if (row.state !== 'anchored') return words(`state.${row.state}`);
  if (row.verification === 'verified') return words('row.verified');
  const reason = sayOrNothing(row.verificationMessage);
  return words(row.verification === 'invalid' ? 'row.invalid' : 'row.unverifiable', { reason });
}

export function describeCounts(counts: StateCounts, { skipZero = false } = {}): string {
  return LOCAL_STATES.filter((state) => !skipZero || counts[state] > 0)
    .map((state) => `${words(`state.${state}`)} ${counts[state]}`)
    .join(', ');
}

/** A row as automation sees it: no internals, nothing secret (there is nothing secret in a row). */
export function publicRow(row: CertificationRow) {
  return {
    id: row.id,
    file: row.filePath,
    asset_hash: row.assetHash,
    event_type: row.eventType,
    state: row.state,
    request_id: row.requestId,
    service_id: row.serviceId,
    service_state: row.serviceState,
    verification: row.verification,
    error: englishOrNull(row.errorMessage),
    certified_by: row.certifiedBy,
    certified_on: row.certifiedOn,
    matter: row.matter,
    // Independent time (RFC 3161): null where the profile asks for none.
    time:
      row.timestampState === null
        ? null
        : {
            state: row.timestampState,
            confirmed_by: row.timeConfirmedBy,
            confirmed_at: row.timeConfirmedAt === null ? null : utcIso(row.timeConfirmedAt),
            problem: englishOrNull(row.timestampProblem),
          },
  };
}

/** Whether anything can be sent now, and why not, for `--json`. */
export function sendingState(core: EvidenceCore): { blocked: boolean; reason: string | null } {
  const { state, message } = core.connectivity;
  return {
    blocked: isSendingBlocked(state),
    reason: isSendingBlocked(state) ? englishOrNull(message) : null,
  };
}

/** Says (on stderr) that sending is blocked and why; true when it is. */
export function reportBlocked(core: EvidenceCore, values: Values): boolean {
  if (!sendingState(core).blocked) return false;
  if (!values.json) err(say(core.sync.blockedError().said));
  return true;
}

/** Where the certifications went, for every output: a sandbox's are said to carry no legal weight. */
export function environmentOf(core: EvidenceCore) {
  const { id, kind, demo } = core.status().profile;
  return { profile: id, kind, label: ENVIRONMENT_LABELS[kind], demo, notice: demo ? en.cli.demo : null };
}

/** The active environment for people, in the command line's language, with DEMO said where it applies. */
export function environmentWords(core: EvidenceCore): { label: string; demo: string } {
  const { kind, demo } = core.status().profile;
  return { label: words(`environment.${kind}`), demo: demo ? words('demoShort') : '' };
}

/**
 * Says, for people (not with --json), that what was just shown was made on a sandbox: on stdout
 * where it is part of the result (verify), on stderr beside progress (certify, export).
 */
export function sayIfDemo(core: EvidenceCore, values: Values, write: (text: string) => void = err): void {
  if (!values.json && core.status().profile.demo) write(words('demo'));
}
