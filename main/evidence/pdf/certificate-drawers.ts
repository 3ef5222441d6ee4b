import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerBeside } from '../../worker-url';
import type { Receipt } from '../../../protocol/receipt';
import type { CertificateOptions } from './certificate';
import { renderCertificate } from './certificate';
import type { DrawAnswer, DrawRequest } from './certificate-worker';
import type { SealNote } from '../../tools/pdf/seal';

// Below this many certificates, drawing them here costs about what starting a thread does (it loads
// pdfkit and parses the fonts): measured on two cores, a kit of 40 took as long either way, one of
// 200 15% less with threads.
export const DRAWERS_FROM = 40;

const WORKER_URL = workerBeside(import.meta.url, 'certificate-worker');
// From source the worker is TypeScript with extensionless imports: it loads through tsx (a
// process started with tsx passes it on by itself).
const WORKER_OPTIONS =
  WORKER_URL.pathname.endsWith('.ts') && !process.execArgv.includes('tsx')
    ? { execArgv: [...process.execArgv, '--import', 'tsx'] }
    : {};

// A drawer's young generation kept small: what a certificate allocates dies with it, and V8's
// default (48 MiB) only made the thread's footprint a third larger, for no measurable speed.
const DRAWER_LIMITS = { maxYoungGenerationSizeMb: 8 };

interface Pending {
  request: DrawRequest;
  resolve(pdf: Buffer): void;
  reject(error: unknown): void;
}

interface Drawer {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Whether it has drawn a certificate: one that fails before its first cannot draw here. */
  drawn: boolean;
}

/**
 * Certificates drawn in worker threads: drawing is most of a kit's work. One thread per core but
 * one, which the main thread keeps busy reading receipts, asking for seals and writing files (on
 * two cores, a second drawer made a kit slower). How many are drawn at once is the caller's bound
 * (the kit keeps a few in flight), so memory stays flat. A thread that dies or fails loses nothing:
 * what it held is drawn here instead, and if no thread can run, every certificate is.
 */
export class CertificateDrawers {
  private readonly drawers: Drawer[] = [];
  private nextId = 1;
  private closed = false;

  /** `workerUrl` is the drawing thread's script: another only where a test breaks an installation. */
  constructor(
    count = availableParallelism() - 1,
    private readonly workerUrl = WORKER_URL,
  ) {
    for (let i = 0; i < Math.max(1, count); i++) this.spawn();
  }

  /** Draws one certificate, as renderCertificate does, in another thread when one runs. */
  readonly draw = (receipt: Receipt, options: CertificateOptions, seal: SealNote): Promise<Buffer> => {
    // The authority is asked from this thread: a function does not travel to another.
    const request: DrawRequest = {
      id: this.nextId++,
      receipt,
      options: { ...options, timestamper: undefined },
      seal,
    };
    const least = this.drawers.reduce<Drawer | undefined>(
      (best, drawer) => (best && best.pending.size <= drawer.pending.size ? best : drawer),
      undefined,
    );
    if (this.closed || !least) return drawHere(request);
    return new Promise<Buffer>((resolve, reject) => {
      least.pending.set(request.id, { request, resolve, reject });
      least.worker.postMessage(request);
    });
  };

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.drawers.map(({ worker }) => worker.terminate()));
  }

  private spawn(): void {
    const drawer: Drawer = {
      worker: new Worker(this.workerUrl, { ...WORKER_OPTIONS, resourceLimits: DRAWER_LIMITS }),
      pending: new Map(),
      drawn: false,
    };
    this.drawers.push(drawer);
    drawer.worker.on('message', (answer: DrawAnswer) => {
      const pending = drawer.pending.get(answer.id);
      drawer.pending.delete(answer.id);
      if ('pdf' in answer) {
        drawer.drawn = true;
        pending?.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
        return;
      }
      // Drawn again here, whose answer stands: a thread may lack what this one has (an installed
      // app's archive of fonts), and a certificate that truly cannot be drawn fails here too. A
      // thread that has drawn nothing yet is not asked again.
      if (!drawer.drawn) this.retire(drawer);
      if (pending) drawHere(pending.request).then(pending.resolve, pending.reject);
    });
    const died = () => {
      if (!this.retire(drawer)) return;
      if (!this.closed && drawer.drawn) this.spawn();
    };
    drawer.worker.on('error', died);
    drawer.worker.on('exit', died);
  }

  /** Takes a drawer out of use; what it held is drawn here. False when it was out already. */
  private retire(drawer: Drawer): boolean {
    const index = this.drawers.indexOf(drawer);
    if (index < 0) return false;
    this.drawers.splice(index, 1);
    void drawer.worker.terminate();
    for (const { request, resolve, reject } of drawer.pending.values())
      drawHere(request).then(resolve, reject);
    drawer.pending.clear();
    return true;
  }
}

const drawHere = ({ receipt, options, seal }: DrawRequest) => renderCertificate(receipt, options, seal);
