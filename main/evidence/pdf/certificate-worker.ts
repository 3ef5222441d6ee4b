// Worker thread: draws certificates (pdfkit), so a kit of thousands uses every core while the main
// thread asks the authority for seals and writes files. Each worker parses the fonts once.
import { parentPort } from 'node:worker_threads';
import type { Receipt } from '../../../protocol/receipt';
import type { CertificateOptions } from './certificate';
import { renderCertificate } from './certificate';
import type { SealNote } from '../../tools/pdf/seal';

export interface DrawRequest {
  id: number;
  receipt: Receipt;
  options: CertificateOptions;
  seal: SealNote;
}

export type DrawAnswer = { id: number; pdf: Uint8Array } | { id: number; failed: string };

const port = parentPort;
if (port)
  port.on('message', (request: DrawRequest) => {
    renderCertificate(request.receipt, request.options, request.seal).then(
      (pdf) => {
        // The bytes move to the main thread instead of being copied.
        const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
        const answer: DrawAnswer = { id: request.id, pdf: bytes };
        port.postMessage(answer, pdf.byteLength === pdf.buffer.byteLength ? [pdf.buffer as ArrayBuffer] : []);
      },
      (error: unknown) => {
        const answer: DrawAnswer = { id: request.id, failed: (error as Error).message ?? String(error) };
        port.postMessage(answer);
      },
    );
  });
