import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { LIMITS } from '../../protocol/limits';
import type { Receipt, ReceiptVerdict, SealVerdict } from '../../protocol/receipt';
import type { Trust } from '../../verifier/verify-receipt';
import { refusedReceipt, verifyReceipt } from '../../verifier/verify-receipt';
import { checkSeal } from '../../verifier/pdf/seal-check';
import { nodeEd25519Verify } from '../tools/native-signature';
import { readFileAtMost, readProof } from './read-proof';
import { NO_RECEIPT_WORDS } from '../../verifier/pdf-attachment';

export interface ProofVerification {
  verdict: ReceiptVerdict;
  /** Signed as made on a sandbox (or said so by the receipt): each shell says DEMO with the verdict. */
  demo: boolean;
  /** A certificate PDF's own seal; null for a receipt file. */
  seal: SealVerdict | null;
}

/** Checks a document's hash against a receipt or certificate file, with the keys and roots trusted here. */
export async function checkAgainstProof(
  sha256: string,
  proofPath: string,
  trust: Trust,
  /** The document itself: its SHA-512 is read only if its evidence record was renewed to that hash. */
  documentPath?: string,
): Promise<ProofVerification> {
  const proof = await readProof(proofPath);
  if ('refused' in proof) return { verdict: refusedReceipt(proof.refused), demo: false, seal: null };
  if (!('json' in proof)) return { verdict: unreadableProof(proofPath, proof), demo: false, seal: null };
  let verdict = await verifyReceipt(
    sha256,
    proof.json,
    trust,
    nodeEd25519Verify,
    documentPath === undefined ? undefined : () => sha512OfFile(documentPath),
  );
  if (!proof.pdf) verdict = await withRecordBeside(verdict, proofPath, proof.json, trust);
  // What was signed decides DEMO; a receipt that only claims it is still shown as DEMO.
  const demo =
    verdict.verdict === 'verified' ? verdict.demo : (proof.json as { demo?: unknown } | null)?.demo === true;
  return { verdict, demo, seal: proof.pdf ? await checkSeal(proof.seal, trust.tsaRoots) : null };
}

/**
 * A receipt made before records has its record beside it (NAME.ers beside NAME.receipt.json), whose
 * data object is the receipt file itself: checked too, its verdict added to the time's, or refused.
 */
async function withRecordBeside(
  verdict: ReceiptVerdict,
  proofPath: string,
  json: unknown,
  trust: Trust,
): Promise<ReceiptVerdict> {
  if (verdict.verdict !== 'verified' || !verdict.facts.time || (json as Receipt).evidence_record)
    return verdict;
  const besidePath = proofPath.replace(/(\.receipt)?\.json$/i, '') + '.ers';
  if (besidePath === proofPath) return verdict;
  // Both read as another's files are: regular files only, bounded; the receipt's bytes must be
  // the ones just verified (a file changed since is not the receipt that held).
  let receiptBytes: Buffer;
  let recordBytes: Buffer;
  try {
    receiptBytes = readFileAtMost(proofPath, () => LIMITS.receiptBytes);
    recordBytes = readFileAtMost(besidePath, () => LIMITS.receiptBytes);
    if (JSON.stringify(JSON.parse(receiptBytes.toString('utf8'))) !== JSON.stringify(json)) return verdict;
  } catch {
    return verdict;
  }
  const { checkRecordOfReceipt } = await import('../../verifier/timestamp/receipt-timestamp');
  const record = await checkRecordOfReceipt(receiptBytes, recordBytes, trust.tsaRoots);
  if ('verdict' in record) return record;
  return { ...verdict, facts: { ...verdict.facts, time: { ...verdict.facts.time, record } } };
}

async function sha512OfFile(path: string): Promise<Uint8Array> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return new Uint8Array(hash.digest());
}

function unreadableProof(
  path: string,
  proof:
    { unreadable: string } | { missing: 'pdf_without_receipt' | 'pdf_unreadable' | 'ambiguous' | 'not_json' },
): ReceiptVerdict {
  if ('unreadable' in proof)
    return { verdict: 'receipt_invalid', check: 'format', message: proof.unreadable };
  const message = `${path} ${NO_RECEIPT_WORDS[proof.missing]}`;
  return {
    verdict: 'receipt_invalid',
    check: proof.missing === 'ambiguous' ? 'ambiguous' : 'format',
    message,
  };
}
