import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { readProofBytes } from '../../verifier/pdf-attachment';
import { DeskError } from '../errors';
import { said } from '../../protocol/said';

const inflateAsync = promisify(inflate);

/**
 * A receipt file, or the receipt a certificate PDF carries. A file that is neither is a value the
 * verifier turns into a `format` failure; a file that is not there is an error.
 */
export async function readProof(path: string): Promise<{ json: unknown } | { unreadable: string }> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new DeskError('not_found', said('file.doesNotExist', { path }));
    return { unreadable: `${path} could not be read (${code ?? 'unknown error'}).` };
  }
  const read = await readProofBytes(bytes, (data) => inflateAsync(data));
  if ('json' in read) return read;
  return {
    unreadable:
      read.missing === 'pdf_without_receipt'
        ? `${path} is a PDF, but it carries no Evidence Desk receipt: use the certificate Evidence Desk saved, or its .receipt.json.`
        : `${path} is neither a receipt (JSON) nor a certificate (PDF).`,
  };
}
