import { useEffect, useRef, useState } from 'react';
import type { ReceiptVerdict } from '../../../protocol/receipt';
import type { DocumentVerification } from '../../../protocol/views';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../i18n';
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
  /** What someone signed, then apart what nobody signed: label and value. */
  signed?: [string, string][];
  stated?: [string, string][];
}

/** A verdict's facts in the reader's language: signed ones, and apart what only the receipt says. */
function factsOf(
  verdict: ReceiptVerdict,
  t: TFunction,
  when: (ms: number) => string,
): Pick<Answer, 'signed' | 'stated'> {
  if (verdict.verdict !== 'verified') return {};
  const { log, time, stated } = verdict.facts;
  const at = (iso: string) => when(Date.parse(iso));
  const signed: [string, string][] = [];
  if (log) {
    if (log.eventType) signed.push([t('verify.facts.event'), `${log.eventType} · ${log.assetType ?? ''}`]);
    if (log.sourceSystem) signed.push([t('verify.facts.sourceSystem'), log.sourceSystem]);
    if (log.certifiedAt) signed.push([t('verify.facts.certifiedAt'), at(log.certifiedAt)]);
    signed.push([t('verify.facts.anchoredAt'), at(log.anchoredAt)]);
    signed.push([
      t('verify.facts.logEntry'),
      t('verify.facts.logEntryValue', { entry: log.entry, size: log.treeSize }),
    ]);
  }
  if (time)
    signed.push([
      t('verify.facts.timeConfirmed'),
      t('verify.facts.timeConfirmedValue', { when: at(time.genTime), authority: time.authority }),
    ]);
  const said: [string, string][] = [[t('verify.facts.fileName'), stated.fileName]];
  if (stated.matter) said.push([t('verify.facts.matter'), stated.matter]);
  if (stated.certifiedBy || stated.computer)
    said.push([
      t('verify.facts.certifiedBy'),
      stated.certifiedBy && stated.computer
        ? t('details.byOn', { user: stated.certifiedBy, computer: stated.computer })
        : (stated.certifiedBy ?? stated.computer ?? ''),
    ]);
  if (stated.computerClock) {
    said.push([t('verify.facts.queuedAt'), at(stated.computerClock.certifiedAt)]);
    if (stated.computerClock.anchoredAt)
      said.push([t('verify.facts.seenAnchoredAt'), at(stated.computerClock.anchoredAt)]);
  }
  return { signed, stated: said };
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
function explain(result: DocumentVerification, t: TFunction, when: (ms: number) => string): Answer {
  if (result.kind === 'proof') {
    const look: Look =
      result.verdict.verdict === 'verified'
        ? 'verified'
        : ['content_differs', 'receipt_invalid', 'timestamp_invalid'].includes(result.verdict.verdict)
          ? 'failed'
          : 'warning';
    return {
      look,
      headline: t(`verify.verdicts.${result.verdict.verdict}`),
      lines: [result.verdict.message, result.demoNotice ?? ''],
      ...factsOf(result.verdict, t, when),
    };
  }
  const verified = result.certifications.filter((c) => c.check.verification === 'verified');
  if (verified.length)
    return {
      look: 'verified',
      headline: t('verify.verifiedHere'),
      lines: verified.map(({ row, check }) =>
        t('verify.certifiedAs', { name: row.fileName, when: when(row.createdAt), message: check.message }),
      ),
    };
  if (result.certifications.length)
    return {
      look: 'warning',
      headline: t('verify.certifiedNotVerified'),
      lines: result.certifications.map(({ row, check }) => `“${row.fileName}”: ${check.message}`),
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
      .then((result) => current && setAnswer(explain(result, t, format.long)))
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
        <button type="button" className="primary" onClick={onClose} autoFocus>
          {t('verify.close')}
        </button>
      </div>
    </Dialog>
  );
}
