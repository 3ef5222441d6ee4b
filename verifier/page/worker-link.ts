import type { SetResult, SetSummary } from '../../protocol/sets';
import type { Trust } from '../verify-receipt';
import type { Language } from '../../protocol/locales/languages';
import type { DocumentOutcome } from './document-check';
import { checkDocument, readProof } from './document-check';
import type { ChosenFile, SetCheckView } from './set-check';
import { checkProduction } from './set-check';

/** The page's checks, wherever they run: in its worker, or (where a browser allows none) in the page. */
export interface PageChecks {
  isProof(file: File): Promise<boolean>;
  document(
    document: File,
    proof: File,
    trust: Trust,
    progress: (done: number) => void,
  ): Promise<DocumentOutcome>;
  production(
    documents: ChosenFile[],
    kit: ChosenFile[],
    trust: Trust,
    language: Language,
    view: SetCheckView,
  ): Promise<void>;
}

export const checksHere: PageChecks = {
  isProof: async (file) => 'json' in (await readProof(file)),
  document: checkDocument,
  production: checkProduction,
};

type Work =
  | { job: 'isProof'; file: File }
  | { job: 'document'; document: File; proof: File; trust: Trust }
  | { job: 'production'; documents: ChosenFile[]; kit: ChosenFile[]; trust: Trust; language: Language };
type Job = Work & { id: number };

type Report =
  | { id: number; event: 'progress'; fraction: number }
  | {
      id: number;
      event: 'result';
      kind: Parameters<SetCheckView['result']>[0];
      headline: string;
      text: string;
      demo: boolean;
      seal: string[];
    }
  | { id: number; event: 'lines'; shown: SetResult[]; total: number; counts: SetSummary['counts'] }
  | { id: number; event: 'done'; value: unknown }
  | { id: number; event: 'error'; message: string };

/**
 * The checks in a worker made from this page's own script (verify.html is one file: the same
 * script, started where there is no document, serves the jobs). Null where no worker can start.
 */
export function checksInWorker(script: string): PageChecks | null {
  let worker: Worker;
  try {
    worker = new Worker(URL.createObjectURL(new Blob([script], { type: 'text/javascript' })));
  } catch {
    return null;
  }
  let next = 0;
  // A browser that refuses the worker (a stricter policy, an old engine) says so only by an error
  // event: the jobs waiting then, and every one after, run in the page instead.
  let refused = false;
  const waiting = new Map<number, { onReport: (report: Report) => void; here: () => void }>();
  worker.onmessage = (event: MessageEvent<Report>) => waiting.get(event.data.id)?.onReport(event.data);
  worker.onerror = () => {
    refused = true;
    for (const [id, job] of waiting) {
      waiting.delete(id);
      job.here();
    }
  };
  const ask = <T>(
    job: Work,
    here: () => Promise<T>,
    onReport: (report: Report) => void = () => {},
  ): Promise<T> => {
    if (refused) return here();
    const id = ++next;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, {
        here: () => void here().then(resolve, reject),
        onReport: (report) => {
          if (report.event === 'done') resolve(report.value as T);
          else if (report.event === 'error') reject(new Error(report.message));
          else return onReport(report);
          waiting.delete(id);
        },
      });
      worker.postMessage({ ...job, id });
    });
  };
  return {
    isProof: (file) => ask({ job: 'isProof', file }, () => checksHere.isProof(file)),
    document: (document, proof, trust, progress) =>
      ask(
        { job: 'document', document, proof, trust },
        () => checksHere.document(document, proof, trust, progress),
        (report) => {
          if (report.event === 'progress') progress(report.fraction);
        },
      ),
    production: (documents, kit, trust, language, view) =>
      ask(
        { job: 'production', documents, kit, trust, language },
        () => checksHere.production(documents, kit, trust, language, view),
        (report) => {
          if (report.event === 'progress') view.progress(report.fraction);
          if (report.event === 'result')
            view.result(report.kind, report.headline, report.text, report.demo, report.seal);
          if (report.event === 'lines') view.lines(report.shown, report.total, report.counts);
        },
      ),
  };
}

/** In the worker: runs each job the page sends, reporting progress and the outcome. */
export function serveChecks(scope: { onmessage: unknown; postMessage(report: Report): void }): void {
  const post = (report: Report) => scope.postMessage(report);
  scope.onmessage = async (event: MessageEvent<Job>) => {
    const job = event.data;
    const { id } = job;
    const progress = (fraction: number) => post({ id, event: 'progress', fraction });
    try {
      const value =
        job.job === 'isProof'
          ? await checksHere.isProof(job.file)
          : job.job === 'document'
            ? await checksHere.document(job.document, job.proof, job.trust, progress)
            : await checksHere.production(job.documents, job.kit, job.trust, job.language, {
                progress,
                result: (kind, headline, text, demo, seal) =>
                  post({ id, event: 'result', kind, headline, text, demo, seal }),
                lines: (shown, total, counts) => post({ id, event: 'lines', shown, total, counts }),
              });
      post({ id, event: 'done', value });
    } catch (error) {
      post({ id, event: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  };
}
