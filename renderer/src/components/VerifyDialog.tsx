import { useEffect, useRef, useState } from 'react';
import type { DocumentVerification } from '../../../protocol/views';
import { localWithZone } from '../../../protocol/time-format';
import { ask, bridge, messageOf } from '../bridge';
import { Dialog } from './Dialog';
import { pathsOf } from './DropZone';

const nameOf = (path: string) => path.split(/[\\/]/).at(-1) ?? path;
/** Receipts and certificates are told apart from documents by the names Evidence Desk gives them. */
export const isProofName = (path: string) => /\.(receipt\.json|certificate\.pdf)$/i.test(path);

type Look = 'verified' | 'failed' | 'warning' | 'neutral';
interface Answer {
  look: Look;
  headline: string;
  lines: string[];
}

/** A verification in plain words: a headline, then what it rests on. */
function explain(result: DocumentVerification): Answer {
  if (result.kind === 'proof') {
    const look: Look =
      result.verdict.verdict === 'verified'
        ? 'verified'
        : result.verdict.verdict === 'content_differs' || result.verdict.verdict === 'receipt_invalid'
          ? 'failed'
          : 'warning';
    return { look, headline: result.headline, lines: [result.verdict.message, result.demoNotice ?? ''] };
  }
  const verified = result.certifications.filter((c) => c.check.verification === 'verified');
  if (verified.length)
    return {
      look: 'verified',
      headline: 'Verified: this document is certified here',
      lines: verified.map(
        ({ row, check }) =>
          `Certified as “${row.fileName}” on ${localWithZone(row.createdAt)}. ${check.message}`,
      ),
    };
  if (result.certifications.length)
    return {
      look: 'warning',
      headline: 'Certified here, but not verified',
      lines: result.certifications.map(({ row, check }) => `“${row.fileName}”: ${check.message}`),
    };
  if (result.sameName.length)
    return {
      look: 'failed',
      headline: 'Not the certified version',
      lines: result.sameName.map(
        (other) =>
          `A file named “${other.fileName}” was certified on ${localWithZone(other.createdAt)}, but its content has changed since.`,
      ),
    };
  return {
    look: 'neutral',
    headline: 'No certification of this document on this computer',
    lines: ['To check it anyway, give its receipt or certificate as well.'],
  };
}

/**
 * Verify a document: against its receipt or certificate (anyone's, from any computer), or against
 * this computer's certifications. Dropping files on the window while open lands here.
 */
export function VerifyDialog({
  dropped,
  onClose,
}: {
  /** Paths dropped or chosen from the menu: a document, and perhaps its receipt or certificate. */
  dropped: string[];
  onClose(): void;
}) {
  const [documentPath, setDocumentPath] = useState<string | null>(null);
  const [proofPath, setProofPath] = useState<string | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [busy, setBusy] = useState(false);
  const documentInput = useRef<HTMLInputElement>(null);
  const proofInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    for (const path of dropped) (isProofName(path) ? setProofPath : setDocumentPath)(path);
  }, [dropped]);

  useEffect(() => {
    if (!documentPath) return;
    let current = true;
    setBusy(true);
    ask(bridge().verifyDocument({ path: documentPath, ...(proofPath ? { proofPath } : {}) }))
      .then((result) => current && setAnswer(explain(result)))
      .catch(
        (error: unknown) =>
          current && setAnswer({ look: 'failed', headline: 'Could not verify', lines: [messageOf(error)] }),
      )
      .finally(() => current && setBusy(false));
    return () => {
      current = false;
    };
  }, [documentPath, proofPath]);

  return (
    <Dialog title="Verify a document" onClose={onClose} wide>
      <p className="hint">
        Drop a document here, with its receipt or certificate if you have one, or choose them. Nothing leaves
        this computer.
      </p>
      <div className="verify-pickers">
        <div>
          <button type="button" onClick={() => documentInput.current?.click()}>
            Choose document…
          </button>
          <span className="chosen">{documentPath ? nameOf(documentPath) : 'No document yet'}</span>
        </div>
        <div>
          <button type="button" onClick={() => proofInput.current?.click()}>
            Choose receipt or certificate…
          </button>
          <span className="chosen">{proofPath ? nameOf(proofPath) : 'Optional'}</span>
        </div>
        <input
          ref={documentInput}
          type="file"
          hidden
          aria-hidden="true"
          data-testid="verify-document"
          onChange={(event) => setDocumentPath(pathsOf(event.target.files)[0] ?? null)}
        />
        <input
          ref={proofInput}
          type="file"
          hidden
          aria-hidden="true"
          accept=".json,.pdf"
          data-testid="verify-proof"
          onChange={(event) => setProofPath(pathsOf(event.target.files)[0] ?? null)}
        />
      </div>
      <div className={`verdict verdict-${answer?.look ?? 'neutral'}`} role="status" aria-live="polite">
        {busy ? (
          <p>Checking {documentPath ? nameOf(documentPath) : ''}…</p>
        ) : answer ? (
          <>
            <h3>{answer.headline}</h3>
            {answer.lines.filter(Boolean).map((line, index) => (
              <p key={index} className={line.startsWith('DEMO') ? 'demo-mark' : undefined}>
                {line}
              </p>
            ))}
          </>
        ) : (
          <p>Waiting for a document.</p>
        )}
      </div>
      <div className="actions">
        <button type="button" className="primary" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}
