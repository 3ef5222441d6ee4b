import { readFileSync } from 'node:fs';
import { Verification } from '../../evidence/verification';
import { isDeskError } from '../../errors';
import { isLogKeyFingerprint } from '../../../protocol/profiles';
import { fingerprintOfKey } from '../../evidence/log-trust';
import type { ProofVerification } from '../../evidence/verify-document';
import { checkAgainstProof } from '../../evidence/verify-document';
import { certificateFingerprint, certificatesFromPem } from '../../../verifier/timestamp/token';
import type { FactLine } from '../../../protocol/fact-lines';
import { verdictFactLines } from '../../../protocol/fact-lines';
import { factWords, whyOf } from '../../../protocol/locales/verdict-words';
import { hashOneFile } from '../../hashing/hash-one-file';
import { HashPool } from '../../hashing/hash-pool';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import { out, outJson, printable } from '../output';
import { appWords, say, words } from '../language';

/**
 * `verify FILE --receipt R` or `--certificate C.pdf`: nothing but the file, the receipt (or the
 * certificate carrying it) and the keys trusted — no queue, no profile, no network. Exit 0 only
 * for `verified`.
 */
export async function verifyAgainstReceipt(path: string, values: Values, dataDir: string): Promise<number> {
  const proofPath = (values.certificate ?? values.receipt) as string;
  const here = Verification.trustedHere(dataDir);
  const trusted = {
    logKeys: [...(values['log-key'] ?? []).map(fingerprintOf), ...here.logKeys],
    tsaRoots: [...(values['tsa-root'] ?? []).map(rootFingerprintOf), ...here.tsaRoots],
  };
  const pool = new HashPool(1);
  try {
    const { hash } = await hashOneFile(pool, path);
    const result = await checkAgainstProof(hash, proofPath, trusted).catch((error: unknown) => {
      if (isDeskError(error) && error.code === 'not_found') throw new UsageError(say(error.said));
      throw error;
    });
    if (values.json) outJson({ path, sha256: hash, ...result.verdict, demo: result.demoNotice !== null });
    else out([printable(path), `sha256 ${hash}`, ...verdictText(result)].filter(Boolean).join('\n'));
    return result.verdict.verdict === 'verified' ? EXIT.ok : EXIT.failed;
  } finally {
    await pool.close();
  }
}

/** The verdict as a reader sees it: headline, explanation, what was signed, and apart what nobody signed. */
function verdictText(result: ProofVerification): (string | null)[] {
  const { verdict } = result;
  const { signed, stated } = verdictFactLines(verdict);
  // Times stay ISO 8601 UTC, as the receipt and the log have them: a command line is compared, not read aloud.
  const asGiven = (iso: string) => iso;
  const block = (lines: FactLine[]) =>
    lines.map((line) => {
      const [label, value] = factWords(line, appWords, asGiven);
      return `  ${label}: ${printable(value)}`;
    });
  return [
    appWords(`verify.verdicts.${verdict.verdict}`),
    whyOf(verdict, appWords, asGiven),
    ...(signed.length ? [`${appWords('verify.signedHeading')}:`, ...block(signed)] : []),
    ...(stated.length ? [`${appWords('verify.statedHeading')}:`, ...block(stated)] : []),
    result.demoNotice && appWords('verify.why.demo'),
  ];
}

/** A trusted timestamping root given as its SHA-256 fingerprint or as a PEM certificate file. */
function rootFingerprintOf(value: string): string {
  if (/^(sha256:)?[0-9a-fA-F]{64}$/.test(value.trim()))
    return value
      .trim()
      .replace(/^sha256:/, '')
      .toLowerCase();
  let pem = '';
  try {
    pem = readFileSync(value, 'utf8');
  } catch {
    // Refused below, like a file that holds no certificate.
  }
  const [first] = certificatesFromPem(pem);
  if (first) return certificateFingerprint(first);
  throw new UsageError(words('usageErrors.tsaRoot', { value }));
}

/** A trusted log key given as its fingerprint (64 hex characters) or as a PEM public key file. */
function fingerprintOf(value: string): string {
  let fingerprint: string | null = null;
  try {
    fingerprint = fingerprintOfKey(isLogKeyFingerprint(value) ? value : readFileSync(value, 'utf8'));
  } catch {
    // A file that cannot be read is refused below, like one that holds no key.
  }
  if (fingerprint) return fingerprint;
  throw new UsageError(words('usageErrors.logKey', { value }));
}
