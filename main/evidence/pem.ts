/** DER (base64) as PEM, in lines of 64, as OpenSSL reads and writes it. */
export function pem(derBase64: string, label = 'PUBLIC KEY'): string {
  const lines = derBase64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
