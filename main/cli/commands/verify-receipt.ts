import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import type { ReceiptVerdict } from '../../../protocol/receipt';
import { attachedReceipt } from '../../../verifier/pdf-attachment';
import { DEMO_VERDICT_NOTICE, VERDICT_HEADLINES, verifyReceipt } from '../../../verifier/verify-receipt';
import { EvidenceCore } from '../../core';
import { nodeEd25519Verify } from '../../evidence/native-signature';
import { hashOneFile } from '../../hashing/hash-one-file';
import { HashPool } from '../../hashing/hash-pool';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import { out, outJson, printable } from '../output';

const inflateAsync = promisify(inflate);

/**
 * `verify FILE --receipt R` or `--certificate C.pdf`: nothing but the file, the receipt (or the
 * certificate carrying it) and the keys trusted — no queue, no profile, no network. Exit 0 only
 * for `verified`.
 */
export async function verifyAgainstReceipt(path: string, values: Values, dataDir: string): Promise<number> {
  const proofPath = (values.certificate ?? values.receipt) as string;
  const receipt = await readProof(proofPath);
  const trusted = [...(values['log-key'] ?? []).map(fingerprintOf), ...EvidenceCore.trustedLogKeys(dataDir)];
  const pool = new HashPool(1);
  try {
    const { hash } = await hashOneFile(pool, path);
    const result: ReceiptVerdict =
      'unreadable' in receipt
        ? { verdict: 'receipt_invalid', check: 'format', message: receipt.unreadable }
        : verifyReceipt(hash, receipt.json, trusted, nodeEd25519Verify);
    const demo = 'json' in receipt && (receipt.json as { demo?: unknown } | null)?.demo === true;
    if (values.json) outJson({ path, sha256: hash, ...result, demo });
    else
      out(
        [printable(path), `sha256 ${hash}`, VERDICT_HEADLINES[result.verdict], result.message]
          .concat(demo ? [DEMO_VERDICT_NOTICE] : [])
          .join('\n'),
      );
    return result.verdict === 'verified' ? EXIT.ok : EXIT.failed;
  } finally {
    await pool.close();
  }
}

/** A receipt file, or the receipt a certificate PDF carries; a file that is neither is a `format` failure. */
async function readProof(path: string): Promise<{ json: unknown } | { unreadable: string }> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${path} does not exist.`);
    return { unreadable: `${path} could not be read (${code ?? 'unknown error'}).` };
  }
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
    const json = await attachedReceipt(bytes, (data) => inflateAsync(data));
    return json === undefined
      ? {
          unreadable: `${path} is a PDF, but it carries no Evidence Desk receipt: use the certificate Evidence Desk saved, or its .receipt.json.`,
        }
      : { json };
  }
  try {
    return { json: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    return { unreadable: `${path} is neither a receipt (JSON) nor a certificate (PDF).` };
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
