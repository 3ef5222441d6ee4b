import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { nodeEd25519Verify } from '../main/tools/native-signature';
import type { Receipt } from '../protocol/receipt';
import { RECEIPT_V1 } from '../protocol/receipt';
import { certificateFingerprint } from '../verifier/timestamp/token';
import { base64ToBytes } from '../verifier/bytes';
import { verifyReceipt } from '../verifier/verify-receipt';
import type { BenchFigure } from './figure';

/**
 * Verifying a folder of v3 receipts (log evidence, the RFC 3161 token, its chain and validation data, every copy
 * compared) against the same receipts as v1 (log evidence only), in this process, one after another.
 */
export async function verifyReceiptsFigure(folder: string): Promise<BenchFigure> {
  const receipts = readdirSync(folder)
    .filter((name) => name.endsWith('.receipt.json'))
    .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as Receipt);
  const first = receipts[0];
  if (!first?.log_key || !first.timestamp) throw new Error('The receipts carry no log key or timestamp.');
  const trust = {
    logKeys: [first.log_key.fingerprint],
    tsaRoots: [certificateFingerprint(base64ToBytes(first.timestamp.chain.at(-1) ?? ''))],
  };
  const v1 = receipts.map((receipt) => ({
    ...receipt,
    format: RECEIPT_V1,
    timestamp: undefined,
  }));
  const time = async (list: Receipt[]) => {
    const started = performance.now();
    let failures = 0;
    for (const receipt of list) {
      const verdict = await verifyReceipt(receipt.file.sha256, receipt, trust, nodeEd25519Verify);
      if (verdict.verdict !== 'verified') failures++;
    }
    return { ms: performance.now() - started, failures };
  };
  const old = await time(v1);
  const current = await time(receipts);
  return {
    name: `verify ${receipts.length.toLocaleString('en')} v3 receipts (log, RFC 3161 token, chain and validation data, copies)`,
    value: current.ms,
    reference: old.ms,
    unit: 'ms',
    referenceName: `the same as v1 receipts (log evidence only)`,
    failures: old.failures + current.failures,
  };
}
