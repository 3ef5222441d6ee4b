import type { EvidenceDeskBridge } from '../../preload/bridge';
import type { CallResult } from '../../preload/channels';

declare global {
  interface Window {
    evidenceDesk: EvidenceDeskBridge;
  }
}

/** The one way the renderer reaches main: the bridge the preload exposed. */
export const bridge = (): EvidenceDeskBridge => window.evidenceDesk;

/** Unwraps a call's answer, turning an error value into a thrown message for the caller to show. */
export async function call<T>(result: Promise<CallResult<unknown>>): Promise<T> {
  const answer = await result;
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value as T;
}
