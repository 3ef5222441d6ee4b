import { useEffect, useRef, useState } from 'react';
import type { FactLine } from '../../../protocol/fact-lines';
import { verdictFactLines } from '../../../protocol/fact-lines';
import type { DocumentVerification } from '../../../protocol/views';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../i18n';
import { messageOf } from '../bridge';
import { verifyDocument } from '../calls/verify';
import { Dialog } from './Dialog';
import { HiddenPicker } from './HiddenPicker';
import { pathsOf } from './DropZone';
import type { Said } from '../../../protocol/said';
import { useSay } from '../i18n';
import { factWords, sealWords, whyOf } from '../../../protocol/locales/verdict-words';
import type { ReceiptVerdict } from '../../../protocol/receipt';
import { desk } from '../store';

const nameOf = (path: string) => path.split(/[\\/]/).at(-1) ?? path;
/** Receipts and certificates are told apart from documents by the names Evidence Desk gives them. */
export const isProofName = (path: string) => /\.(receipt\.json|certificate\.pdf)$/i.test(path);

type Look = 'verified' | 'failed' | 'warning' | 'neutral';
interface Answer {
  look: Look;
  headline: string;
  lines: string[];
  /** What someone signed, then apart what nobody signed: label and value. */
  signed?: [string, string][];
  stated?: [string, string][];
}

/** A verdict's facts in the reader's language, from the same lines every verifier shows. */
function factsOf(
  verdict: ReceiptVerdict,
  t: TFunction,
  when: (ms: number) => string,
): Pick<Answer, 'signed' | 'stated'> {
  const words = (line: FactLine) => factWords(line, t, (iso) => when(Date.parse(iso)));
  const { signed, stated } = verdictFactLines(verdict);
  return signed.length || stated.length ? { signed: signed.map(words), stated: stated.map(words) } : {};
}

function FactList({ heading, facts, name }: { heading: string; facts?: [string, string][]; name: string }) {
  if (!facts?.length) return null;
  return (
    <section className={`verdict-facts ${name}`} aria-label={heading}>
      <h4>{heading}</h4>
      <dl>
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A verification in plain words: a headline, then what it rests on. */
function explain(
  result: DocumentVerification,
  t: TFunction,
  say: (saying: Said) => string,
  when: (ms: number) => string,
): Answer {
  if (result.kind === 'proof') {
    const look: Look =
      result.verdict.verdict === 'verified' && result.seal?.state !== 'broken'
        ? 'verified'
        : ['content_differs', 'receipt_invalid', 'timestamp_invalid'].includes(result.verdict.verdict)
          ? 'failed'
          : 'warning';
    return {
      look,
      headline:
        result.verdict.verdict === 'verified' && result.seal?.state === 'broken'
          ? t('verify.verdicts.verifiedSealBroken')
          : t(`verify.verdicts.${result.verdict.verdict}`),
      lines: [
        whyOf(result.verdict, t, (iso) => when(Date.parse(iso))),
        sealWords(result.seal, t, (iso) => when(Date.parse(iso))),
        result.demo ? t('verify.why.demo') : '',
      ],
      ...factsOf(result.verdict, t, when),
    };
  }
  const verified = result.certifications.filter((c) => c.check.verification === 'verified');
  if (verified.length)
    return {
      look: 'verified',
      headline: t('verify.verifiedHere'),
      lines: verified.map(({ row, check }) =>
        t('verify.certifiedAs', {
          name: row.fileName,
          when: when(row.createdAt),
          message: say(check.message),
        }),
      ),
    };
  if (result.certifications.length)
    return {
      look: 'warning',
      headline: t('verify.certifiedNotVerified'),
      lines: result.certifications.map(({ row, check }) => `“${row.fileName}”: ${say(check.message)}`),
    };
  if (result.sameName.length)
    return {
      look: 'failed',
      headline: t('verify.notCertifiedVersion'),
      lines: result.sameName.map((other) =>
        t('verify.changedSince', { name: other.fileName, when: when(other.createdAt) }),
      ),
    };
  return {
    look: 'neutral',
    headline: t('verify.noCertification'),
    lines: [t('verify.giveProof')],
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
  const { t } = useTranslation();
  const format = useFormat();
  const say = useSay();
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
    verifyDocument({ path: documentPath, ...(proofPath ? { proofPath } : {}) })
      .then((result) => current && setAnswer(explain(result, t, say, format.long)))
      .catch(
        (error: unknown) =>
          current &&
          setAnswer({ look: 'failed', headline: t('verify.couldNotVerify'), lines: [messageOf(error)] }),
      )
      .finally(() => current && setBusy(false));
    return () => {
      current = false;
    };
  }, [documentPath, proofPath]);

  return (
    <Dialog title={t('verify.title')} onClose={onClose} wide>
      <p className="hint">{t('verify.explain')}</p>
      <div className="verify-pickers">
        <div>
          <button type="button" onClick={() => documentInput.current?.click()}>
            {t('verify.chooseDocument')}
          </button>
          <span className="chosen">{documentPath ? nameOf(documentPath) : t('verify.noDocument')}</span>
        </div>
        <div>
          <button type="button" onClick={() => proofInput.current?.click()}>
            {t('verify.chooseProof')}
          </button>
          <span className="chosen">{proofPath ? nameOf(proofPath) : t('verify.optional')}</span>
        </div>
        <HiddenPicker
          ref={documentInput}
          testId="verify-document"
          onPick={(files) => setDocumentPath(pathsOf(files)[0] ?? null)}
        />
        <HiddenPicker
          ref={proofInput}
          accept=".json,.pdf"
          testId="verify-proof"
          onPick={(files) => setProofPath(pathsOf(files)[0] ?? null)}
        />
      </div>
      <div className={`verdict verdict-${answer?.look ?? 'neutral'}`} role="status" aria-live="polite">
        {busy ? (
          <p>{t('verify.checking', { name: documentPath ? nameOf(documentPath) : '' })}</p>
        ) : answer ? (
          <>
            <h3>{answer.headline}</h3>
            {answer.lines.filter(Boolean).map((line, index) => (
              <p key={index} className={line.startsWith('DEMO') ? 'demo-mark' : undefined}>
                {line}
              </p>
            ))}
            <FactList heading={t('verify.signedHeading')} facts={answer.signed} name="signed" />
            <FactList heading={t('verify.statedHeading')} facts={answer.stated} name="stated" />
          </>
        ) : (
          <p>{t('verify.waiting')}</p>
        )}
      </div>
      <div className="actions">
        <button type="button" onClick={() => desk.set({ verifying: null, verifyingSet: [] })}>
          {t('verifySet.open')}
        </button>
        <button type="button" className="primary" onClick={onClose} autoFocus>
          {t('verify.close')}
        </button>
      </div>
    </Dialog>
  );
}
