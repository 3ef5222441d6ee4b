import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { EvidenceCore } from '../../core';
import { hashOneFile } from '../../hashing/hash-one-file';
import { HashPool } from '../../hashing/hash-pool';
import { verifyReceipt } from '../../evidence/verify-receipt';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import { out, outJson, printable } from '../output';

/**
 * `verify FILE --receipt R`: nothing but the file, the receipt and the keys trusted — no queue,
 * no profile, no network. Exit 0 only for `verified`.
 */
export async function verifyAgainstReceipt(path: string, values: Values, dataDir: string): Promise<number> {
  const receiptPath = values.receipt as string;
  let receipt: unknown;
  try {
    receipt = JSON.parse(readFileSync(receiptPath, 'utf8'));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing) throw new UsageError(`The receipt ${receiptPath} does not exist.`);
    receipt = undefined;
  }
  const trusted = [...(values['log-key'] ?? []).map(fingerprintOf), ...EvidenceCore.trustedLogKeys(dataDir)];
  const pool = new HashPool(1);
  try {
    const { hash } = await hashOneFile(pool, path);
    const result =
      receipt === undefined
        ? ({
            verdict: 'receipt_invalid',
            check: 'format',
            message: `${receiptPath} is not JSON, so not a receipt.`,
          } as const)
        : verifyReceipt(hash, receipt, trusted);
    if (values.json) outJson({ path, sha256: hash, ...result });
    else out(`${printable(path)}\nsha256 ${hash}\n${result.message}`);
    return result.verdict === 'verified' ? EXIT.ok : EXIT.failed;
  } finally {
    await pool.close();
  }
}

/** A trusted log key given as its fingerprint (64 hex characters) or as a PEM public key file. */
function fingerprintOf(value: string): string {
  if (/^(sha256:)?[0-9a-fA-F]{64}$/.test(value)) return value.replace(/^sha256:/, '').toLowerCase();
  try {
    const der = createPublicKey(readFileSync(value, 'utf8')).export({ type: 'spki', format: 'der' });
    return createHash('sha256').update(der).digest('hex');
  } catch {
    throw new UsageError(
      `--log-key takes a key's SHA-256 fingerprint or a PEM public key file; ${value} is neither.`,
    );
  }
}
