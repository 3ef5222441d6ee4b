import { existsSync, readFileSync } from 'node:fs';
import { said } from '../../../protocol/said';
import { Verification } from '../../evidence/verification';
import { isLogKeyFingerprint } from '../../../protocol/profiles';
import type { ProofVerification, Trust } from '../../evidence/verification';
import type { FactLine } from '../../../protocol/fact-lines';
import { verdictFactLines } from '../../../protocol/fact-lines';
import { factWords, sealWords, whyOf } from '../../../protocol/locales/verdict-words';
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
  // A proof that is not there is a mistake in the arguments, not a failed verification.
  if (!existsSync(proofPath)) throw new UsageError(say(said('file.doesNotExist', { path: proofPath })));
  const { assetHash: hash, proof: result } = await Verification.checkProofAlone(
    path,
    proofPath,
    dataDir,
    trustGiven(values),
  );
  if (values.json) outJson({ path, sha256: hash, ...result.verdict, demo: result.demo, seal: result.seal });
  else out([printable(path), `sha256 ${hash}`, ...verdictText(result)].filter(Boolean).join('\n'));
  // A bound passed is a refusal of the input, not a verdict on it; a broken seal is no success.
  if (result.verdict.verdict === 'receipt_invalid' && result.verdict.check === 'limit') return EXIT.usage;
  return result.verdict.verdict === 'verified' && result.seal?.state !== 'broken' ? EXIT.ok : EXIT.failed;
}

/** The log keys (`--log-key`) and timestamping roots (`--tsa-root`) trusted besides this computer's. */
export const trustGiven = (values: Values): Trust => ({
  logKeys: (values['log-key'] ?? []).map(fingerprintOf),
  tsaRoots: (values['tsa-root'] ?? []).map(rootFingerprintOf),
});

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
  const sealBroken = verdict.verdict === 'verified' && result.seal?.state === 'broken';
  return [
    appWords(sealBroken ? 'verify.verdicts.verifiedSealBroken' : `verify.verdicts.${verdict.verdict}`),
    printable(whyOf(verdict, appWords, asGiven)),
    ...(signed.length ? [`${appWords('verify.signedHeading')}:`, ...block(signed)] : []),
    ...(stated.length ? [`${appWords('verify.statedHeading')}:`, ...block(stated)] : []),
    printable(sealWords(result.seal, appWords, asGiven)) || null,
    result.demo ? appWords('verify.why.demo') : null,
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
  const fingerprint = Verification.rootFingerprintOf(pem);
  if (fingerprint) return fingerprint;
  throw new UsageError(words('usageErrors.tsaRoot', { value }));
}

/** A trusted log key given as its fingerprint (64 hex characters) or as a PEM public key file. */
function fingerprintOf(value: string): string {
  let fingerprint: string | null = null;
  try {
    fingerprint = Verification.logKeyFingerprintOf(
      isLogKeyFingerprint(value) ? value : readFileSync(value, 'utf8'),
    );
  } catch {
    // A file that cannot be read is refused below, like one that holds no key.
  }
  if (fingerprint) return fingerprint;
  throw new UsageError(words('usageErrors.logKey', { value }));
}
