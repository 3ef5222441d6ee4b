/*
 * DER read and written by hand where a parser would cost more than the job: walking a token's fields
 * without parsing its certificates, writing a record's few structures. Nothing here loads pkijs,
 * so a command that only builds receipts starts without it.
 */

export interface Element {
  tag: number;
  /** Where the element starts, where its contents start, and where it ends. */
  start: number;
  contents: number;
  end: number;
}

/** One DER element at `at`: a single-byte tag and a definite length, else undefined. */
export function elementAt(bytes: Uint8Array, at: number, limit = bytes.length): Element | undefined {
  if (at + 2 > limit) return undefined;
  const tag = bytes[at] as number;
  if ((tag & 0x1f) === 0x1f) return undefined;
  let length = bytes[at + 1] as number;
  let contents = at + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    // 0x80 is BER's indefinite length; over four octets is no token's size.
    if (octets === 0 || octets > 4 || contents + octets > limit) return undefined;
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + (bytes[contents + i] as number);
    contents += octets;
  }
  const end = contents + length;
  return end <= limit ? { tag, start: at, contents, end } : undefined;
}

export function children(bytes: Uint8Array, parent: Element): Element[] | undefined {
  const found: Element[] = [];
  for (let at = parent.contents; at < parent.end;) {
    const child = elementAt(bytes, at, parent.end);
    if (!child) return undefined;
    found.push(child);
    at = child.end;
  }
  return found;
}

/** A DER definite length's octets. */
export function lengthOctets(length: number): number[] {
  if (length < 0x80) return [length];
  const octets: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) octets.unshift(rest % 256);
  return [0x80 | octets.length, ...octets];
}

/** One DER element: tag, definite length, content. */
export const der = (tag: number, ...content: Uint8Array[]): Uint8Array => {
  const length = content.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(1 + lengthOctets(length).length + length);
  out.set([tag, ...lengthOctets(length)]);
  let at = out.length - length;
  for (const part of content) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** When a certificate (DER) stops being valid, ms since the epoch; NaN when it cannot be read that far. */
export function certificateNotAfter(certificate: Uint8Array): number {
  const top = elementAt(certificate, 0);
  const [tbs] = top ? (children(certificate, top) ?? []) : [];
  const fields = tbs && children(certificate, tbs);
  // tbsCertificate: [0] version (optional), serial, signature, issuer, validity, ...
  const validity = fields?.[fields[0]?.tag === 0xa0 ? 4 : 3];
  const [, notAfter] = validity ? (children(certificate, validity) ?? []) : [];
  if (!notAfter) return NaN;
  const text = new TextDecoder().decode(certificate.subarray(notAfter.contents, notAfter.end));
  // UTCTime YYMMDDHHMMSSZ (years 1950-2049), GeneralizedTime YYYYMMDDHHMMSSZ.
  const full = notAfter.tag === 0x17 ? `${Number(text.slice(0, 2)) < 50 ? '20' : '19'}${text}` : text;
  const [, y, mo, d, h, mi, se] = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(full) ?? [];
  return y
    ? Date.UTC(+y, +(mo as string) - 1, +(d as string), +(h as string), +(mi as string), +(se as string))
    : NaN;
}
