import { base64ToBytes } from '../../verifier/bytes';
import type { DocumentTimestamper } from '../tools/pdf/seal';
import type { Fetch } from '../service/network';
import type { Authority } from '../service/ask-authority';
import { askAuthority } from '../service/ask-authority';
import { hostOf } from '../service/authority-host';
import { inEnglish } from '../../protocol/locales';
import { said } from '../../protocol/said';
import type { AuthorityPace } from './authority-pace';

const SEAL_WAITS_AT_MOST_MS = 60_000;

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
  /** Told when a seal must wait for the authority's pace, and until when: the person sees why it takes. */
  onWait?: (until: number) => void,
): DocumentTimestamper {
  let refused: string | undefined;
  return async (signedBytes) => {
    if (refused) return { problem: refused };
    const until = pace.nextTurnAt(authority.url);
    if (until > Date.now()) onWait?.(until);
    // At the authority's pace, shared with the batch tokens: an export waits its turn, up to a minute.
    const turn = await pace.turn(
      authority.url,
      authority.minIntervalMs,
      () => askAuthority(fetch, authority, signedBytes, timeoutMs),
      { waitAtMost: SEAL_WAITS_AT_MOST_MS },
    );
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
    if (answer.ok) return { token: base64ToBytes(answer.token), chain: answer.chain };
    // The seal's problem is written into the export, which is read by others: in English.
    refused = inEnglish(answer.problem);
    return { problem: refused };
  };
}
