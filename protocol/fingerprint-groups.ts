/**
 * A SHA-256 fingerprint as a person compares it with the one the service publishes: upper-case
 * hex in groups of four ("3F2A 9C01 …"), all of it. Anything else is returned as it is.
 */
export function fingerprintInGroups(fingerprint: string): string {
  return /^[0-9a-fA-F]{64}$/.test(fingerprint)
    ? fingerprint.toUpperCase().replace(/(.{4})(?!$)/g, '$1 ')
    : fingerprint;
}
