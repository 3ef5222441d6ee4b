import type { Trust } from '../verify-receipt';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/**
 * What the kit says of itself: the log keys and TSA roots its receipts rest on (a kit before v2
 * listed log keys only), and whether it was made on a sandbox. Its keys are offered, never trusted
 * for being in the kit: the person checking compares their fingerprints and ticks "They match".
 */
export function kitSays(): Trust & { demo: boolean } {
  try {
    const trust = JSON.parse($('kit-trusted-keys').textContent ?? '[]') as unknown;
    if (Array.isArray(trust)) return { logKeys: strings(trust), tsaRoots: [], demo: false };
    const { logKeys, tsaRoots, demo } = (trust ?? {}) as Record<string, unknown>;
    return { logKeys: strings(logKeys), tsaRoots: strings(tsaRoots), demo: demo === true };
  } catch {
    return { logKeys: [], tsaRoots: [], demo: false };
  }
}

const fingerprintIn = (id: string): string[] => {
  const value = $<HTMLInputElement>(id).value.trim().toLowerCase().replace(/\s+/g, '');
  return /^[0-9a-f]{64}$/.test(value) ? [value] : [];
};

/** The keys the person checking trusts: the kit's when they ticked "they match", and any typed in. */
export function trusted(): Trust {
  const kit = $<HTMLInputElement>('trust-kit').checked ? kitSays() : { logKeys: [], tsaRoots: [] };
  return {
    logKeys: [...kit.logKeys, ...fingerprintIn('extra-key')],
    tsaRoots: [...kit.tsaRoots, ...fingerprintIn('extra-tsa-root')],
  };
}
