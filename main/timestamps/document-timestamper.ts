import { base64ToBytes } from '../../verifier/bytes';
import type { DocumentTimestamper, SealRefused } from '../tools/pdf/seal';
import type { Fetch } from '../service/network';
import type { Authority } from '../service/ask-authority';
import { askAuthority } from '../service/ask-authority';
import { hostOf } from '../service/authority-host';
import { inEnglish } from '../../protocol/locales';
import { said } from '../../protocol/said';
import type { AuthorityPace } from './authority-pace';
import type { CertificateStatusStore } from '../store';
import { collectValidationData } from './validation-collector';

const SEAL_WAITS_AT_MOST_MS = 60_000;
const STATUS_WAITS_AT_MOST_MS = 5_000;

/**
 * Seals for one export: a PDF saved on its own asks the authority for its own token, a kit one token
 * for all its files. After the first refusal the rest of the export is not sealed and says the same
 * reason, instead of asking again an authority that is down.
 */
export function documentTimestamper(
  fetch: Fetch,
  authority: Authority,
  timeoutMs: number,
  pace: AuthorityPace,
  statuses: CertificateStatusStore,
  {
    onWait,
    stop,
  }: {
    /** Told when a seal must wait for the authority's pace, and until when: the person sees why it takes. */
    onWait?: (until: number) => void;
    /** The export was cancelled: a seal waiting its turn, or asked for, is not waited for. */
    stop?: AbortSignal;
  } = {},
): DocumentTimestamper {
  let refused: SealRefused | undefined;
  return async (signedBytes) => {
    if (refused) return refused;
    const until = pace.nextTurnAt(authority.url);
    if (until > Date.now()) onWait?.(until);
    // At the authority's pace, shared with the batch tokens: an export waits its turn, up to a minute.
    const turn = await pace.turn(
      authority.url,
      authority.minIntervalMs,
      () => askAuthority(fetch, authority, signedBytes, timeoutMs, stop),
      { waitAtMost: SEAL_WAITS_AT_MOST_MS, stop },
    );
    // Cancelled before its turn came: the export ends as cancelled, nothing was asked.
    if ('stopped' in turn) throw stop?.reason;
    const answer =
      'answer' in turn
        ? turn.answer
        : {
            ok: false as const,
            problem: said('timestamp.rationed', {
              host: hostOf(authority.url),
              until: new Date(turn.tooLong).toISOString(),
            }),
          };
    if (!answer.ok && 'retryAt' in answer && answer.retryAt !== undefined)
      pace.holdUntil(authority.url, answer.retryAt);
    if (answer.ok) {
      // What checking the seal later needs; a seal without it still holds, while its authority does.
      const collected = await collectValidationData(answer.chain, new Date(answer.genTime), {
        fetch,
        statuses,
        // An export never waits long for a status service: without its data the seal still holds (B-T).
        timeoutMs: Math.min(timeoutMs, STATUS_WAITS_AT_MOST_MS),
        now: Date.now,
      });
      if (collected.ok && collected.finding && isRevocation(collected.finding.key)) {
        refused = { problem: inEnglish(collected.finding), reason: collected.finding, final: true };
        return refused;
      }
      return {
        token: base64ToBytes(answer.token),
        chain: answer.chain,
        validation: collected.ok ? collected.data : null,
      };
    }
    // The seal's problem is written into the export, which is read by others: in English.
    refused = { problem: inEnglish(answer.problem), reason: answer.problem };
    return refused;
  };
}

/** A seal by an authority revoked at its time is no seal: the export fails, saying so. */
const isRevocation = (key: string) =>
  key === 'timestamp.validation.revoked' || key === 'timestamp.validation.compromised';
