import { base64ToBytes } from '../../verifier/bytes';
import type { DocumentTimestamper } from '../tools/pdf/seal';
import type { Fetch } from '../service/network';
import type { Authority } from '../service/ask-authority';
import { askAuthority } from '../service/ask-authority';
import { inEnglish } from '../../protocol/locales';

/**
 * Seals for one export: a PDF saved on its own asks the authority for its own token, a kit one token
 * for all its files. After the first refusal the rest of the export is not sealed and says the same
 * reason, instead of asking again an authority that is down.
 */
export function documentTimestamper(
  fetch: Fetch,
  authority: Authority,
  timeoutMs: number,
): DocumentTimestamper {
  let refused: string | undefined;
  return async (signedBytes) => {
    if (refused) return { problem: refused };
    const answer = await askAuthority(fetch, authority, signedBytes, timeoutMs);
    if (answer.ok) return { token: base64ToBytes(answer.token), chain: answer.chain };
    // The seal's problem is written into the export, which is read by others: in English.
    refused = inEnglish(answer.problem);
    return { problem: refused };
  };
}
