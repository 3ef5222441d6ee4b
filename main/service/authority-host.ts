/** An authority as people name it in a sentence: its host, or the address as given when it does not parse. */
export const hostOf = (url: string): string => (URL.canParse(url) ? new URL(url).host : url);
