import { readFileSync } from 'node:fs';
import { EvidenceCore } from '../../core';
import { isDeskError } from '../../errors';
import { isLogKeyFingerprint } from '../../../protocol/profiles';
import { fingerprintOfKey } from '../../evidence/log-trust';
import { checkAgainstProof } from '../../evidence/verify-document';
import { hashOneFile } from '../../hashing/hash-one-file';
import { HashPool } from '../../hashing/hash-pool';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import { out, outJson, printable } from '../output';

/**
 * `verify FILE --receipt R` or `--certificate C.pdf`: nothing but the file, the receipt (or the
 * certificate carrying it) and the keys trusted — no queue, no profile, no network. Exit 0 only
 * for `verified`.
 */
export async function verifyAgainstReceipt(path: string, values: Values, dataDir: string): Promise<number> {
  const proofPath = (values.certificate ?? values.receipt) as string;
  const trusted = [...(values['log-key'] ?? []).map(fingerprintOf), ...EvidenceCore.trustedLogKeys(dataDir)];
  const pool = new HashPool(1);
  try {
    const { hash } = await hashOneFile(pool, path);
    const result = await checkAgainstProof(hash, proofPath, trusted).catch((error: unknown) => {
      if (isDeskError(error) && error.code === 'not_found') throw new UsageError(error.message);
      throw error;
    });
    if (values.json) outJson({ path, sha256: hash, ...result.verdict, demo: result.demoNotice !== null });
    else
      out(
        [printable(path), `sha256 ${hash}`, result.headline, result.verdict.message, result.demoNotice]
          .filter(Boolean)
          .join('\n'),
      );
    return result.verdict.verdict === 'verified' ? EXIT.ok : EXIT.failed;
  } finally {
    await pool.close();
  }
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
  throw new UsageError(
    `--log-key takes a key's SHA-256 fingerprint or a PEM public key file; ${value} is neither.`,
  );
}
