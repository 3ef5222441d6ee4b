import i18next from 'i18next';
import type { EvidenceDeskBridge } from '../../preload/bridge';
import type { CallResult, ErrorCode } from '../../protocol/errors';
import { sayWith } from '../../protocol/locales';

declare global {
  interface Window {
    evidenceDesk: EvidenceDeskBridge;
  }
}

/** The one way the renderer reaches main: the bridge the preload exposed. */
export const bridge = (): EvidenceDeskBridge => window.evidenceDesk;

/** An error answer from main, still carrying its code so a screen can tell one failure from another. */
export class BridgeError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Unwraps a call's answer; an error value becomes a thrown BridgeError for the caller to show. */
export async function ask<T>(result: Promise<CallResult<T>>): Promise<T> {
  const answer = await result;
  // Main says what went wrong as a saying; it is worded here, in the language on screen.
  if (!answer.ok)
    throw new BridgeError(
      answer.error.code,
      answer.error.said ? sayWith(i18next.t)(answer.error.said) : answer.error.message,
    );
  return answer.value;
}

export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : i18next.t('errors.generic');
