import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fingerprints as FingerprintSet, SetOutcome, SetReportView } from '../../../protocol/sets';
import { kitSealLines, sealProblems, setOutcome } from '../../../protocol/sets';
import type { Language } from '../../../protocol/locales/languages';
import { fingerprintInGroups } from '../../../protocol/fingerprint-groups';
import { messageOf } from '../bridge';
import { pathForFile, saveSetReport, verifySet } from '../calls/verify';
import { useFormat, useSay } from '../i18n';
import { desk, useDesk } from '../store';
import { Dialog } from './Dialog';
import { folderOfPick } from '../chosen-folder';
import { leftAtPace, timeLeftWords } from '../time-left';
import { HiddenPicker } from './HiddenPicker';
import { SetResultLines } from './SetResultLines';

// A dropped file of these kinds is the reference (a kit's zip, our register, a load file), not a document.
const REFERENCE_FILE = /\.(zip|csv|dat|txt)$/i;

/** The folder a directory picker chose (see folderOfPick). */
function chosenFolder(files: FileList | null): string | null {
  const first = files?.[0];
  if (!first) return null;
  return folderOfPick(
    pathForFile(first),
    (first as File & { webkitRelativePath?: string }).webkitRelativePath ?? '',
  );
}

const nameOf = (path: string) => path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;

const OUTCOME_HEADLINES = {
  passed: 'verifySet.passed',
  noDocuments: 'verifySet.noDocuments',
  emptyReference: 'verifySet.emptyReference',
  untrusted: 'verifySet.untrustedHeadline',
  failed: 'verifySet.notPassed',
} as const satisfies Record<SetOutcome, string>;

/** How the verdict looks: waiting only on trust is amber, not red. */
const OUTCOME_LOOKS = {
  passed: 'verified',
  noDocuments: 'failed',
  emptyReference: 'failed',
  untrusted: 'warning',
  failed: 'failed',
} as const satisfies Record<SetOutcome, string>;

const hasAny = (fingerprints: FingerprintSet) =>
  fingerprints.logKeys.length + fingerprints.tsaRoots.length > 0;

/** Fingerprints as a person compares them, in groups of four, each named by what it is. */
function Fingerprints({ of }: { of: FingerprintSet }) {
  const { t } = useTranslation();
  return (
    <ul className="fingerprints">
      {of.logKeys.map((key) => (
        <li key={key}>{t('verifySet.logKeyFingerprint', { fingerprint: fingerprintInGroups(key) })}</li>
      ))}
      {of.tsaRoots.map((root) => (
        <li key={root}>{t('verifySet.tsaRootFingerprint', { fingerprint: fingerprintInGroups(root) })}</li>
      ))}
    </ul>
  );
}

/**
 * A whole set (a production, a data room) against a reference: a kit, our register, a load file,
 * or this computer's certifications. Progress while the files are read; then the counts, one line
 * per document (filtered by verdict), and "Save report…". Nothing leaves this computer.
 */
export function VerifySetDialog({ dropped, onClose }: { dropped: string[]; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const say = useSay();
  const format = useFormat();
  const [paths, setPaths] = useState<string[]>([]);
  const [reference, setReference] = useState<string | null>(null);
  const [report, setReport] = useState<SetReportView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState(0);
  const progress = useDesk((state) => state.setProgress);
  const setInput = useRef<HTMLInputElement>(null);
  const kitInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const verdict = useRef<HTMLDivElement>(null);

  // The answer brought into view: on a small window the choices above it fill the dialog, and the
  // lines would start below its edge.
  useEffect(() => {
    if (report) verdict.current?.scrollIntoView({ block: 'start' });
  }, [report]);

  useEffect(() => {
    for (const path of dropped)
      if (REFERENCE_FILE.test(path)) setReference(path);
      else setPaths((before) => (before.includes(path) ? before : [...before, path]));
  }, [dropped]);

  const check = async (trustKit = false) => {
    setBusy(true);
    setProblem(null);
    setReport(null);
    setSaved(null);
    setStarted(Date.now());
    desk.set({ setProgress: null });
    try {
      setReport(
        await verifySet({
          paths,
          ...(reference ? { against: { path: reference, ...(trustKit ? { trustKit } : {}) } } : {}),
        }),
      );
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const save = async (kind: 'csv' | 'pdf') => {
    try {
      const answer = await saveSetReport(kind);
      if (answer) setSaved(t('verifySet.saved', { file: answer.file }));
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  const percent = progress?.bytesTotal ? Math.floor((progress.bytesDone / progress.bytesTotal) * 100) : 0;
  const leftMs =
    progress && !progress.listing
      ? leftAtPace(Date.now() - started, progress.bytesDone, progress.bytesTotal - progress.bytesDone)
      : null;
  const summary = report?.summary;

  return (
    <Dialog title={t('verifySet.title')} onClose={onClose} wide>
      <p className="hint">{t('verifySet.explain')}</p>
      <div className="verify-pickers">
        <div>
          <button type="button" onClick={() => setInput.current?.click()}>
            {t('verifySet.chooseSet')}
          </button>
          <span className="chosen">{paths.length ? paths.map(nameOf).join(', ') : t('verifySet.noSet')}</span>
        </div>
        <div>
          <button type="button" onClick={() => kitInput.current?.click()}>
            {t('verifySet.chooseKit')}
          </button>{' '}
          <button type="button" onClick={() => fileInput.current?.click()}>
            {t('verifySet.chooseFile')}
          </button>
          <span className="chosen">{reference ? nameOf(reference) : t('verifySet.thisComputer')}</span>
        </div>
        <HiddenPicker
          ref={setInput}
          folder
          onPick={(files) => {
            const folder = chosenFolder(files);
            if (folder) setPaths([folder]);
          }}
        />
        <HiddenPicker ref={kitInput} folder onPick={(files) => setReference(chosenFolder(files))} />
        <HiddenPicker
          ref={fileInput}
          accept=".zip,.csv,.dat,.txt"
          onPick={(files) => files?.[0] && setReference(pathForFile(files[0]))}
        />
      </div>
      <div className="actions start">
        <button
          type="button"
          className="primary"
          disabled={busy || paths.length === 0}
          onClick={() => void check()}
        >
          {t('verifySet.check')}
        </button>
      </div>
      <div
        className={`verdict verdict-${summary ? OUTCOME_LOOKS[setOutcome(summary)] : problem ? 'failed' : 'neutral'}`}
        role="status"
        aria-live="polite"
        ref={verdict}
      >
        {busy ? (
          <>
            <p>
              {progress?.listing
                ? t('verifySet.listing', { files: format.number(progress.filesTotal) })
                : t('verifySet.reading', {
                    done: format.number(progress?.filesDone ?? 0),
                    total: format.number(progress?.filesTotal ?? 0),
                  })}
              {leftMs !== null ? ` (${timeLeftWords(leftMs, t)})` : ''}
            </p>
            <progress max={100} value={percent} aria-label={t('verifySet.progress')} />
          </>
        ) : problem ? (
          <>
            <h3>{t('verifySet.couldNotVerify')}</h3>
            <p>{problem}</p>
          </>
        ) : summary && report ? (
          <>
            <h3>{t(OUTCOME_HEADLINES[setOutcome(summary)])}</h3>
            {summary.demo && <p className="demo-mark">{t('verifySet.demo')}</p>}
            <p>
              {t(`verifySet.against.${report.reference.kind}`, { source: report.reference.source ?? '' })}
            </p>
            {report.reference.seal && (
              <div className={sealProblems(report.reference.seal) ? 'kit-seal demo-mark' : 'kit-seal'}>
                {kitSealLines(i18n.language as Language, report.reference.seal, (iso) =>
                  format.long(Date.parse(iso)),
                ).map((line) => (
                  <p key={line}>{line}</p>
                ))}
              </div>
            )}
            {summary.counts.untrusted > 0 && (
              <div className="untrusted-keys">
                <p>{t('verifySet.untrusted', { count: summary.counts.untrusted })}</p>
                <Fingerprints of={report.reference.untrusted} />
                <button type="button" onClick={() => void check(true)}>
                  {t('verifySet.trustKit')}
                </button>
              </div>
            )}
            {hasAny(report.reference.trustedFromKit) && (
              <div className="untrusted-keys">
                <p>{t('verifySet.trustedFromKit')}</p>
                <Fingerprints of={report.reference.trustedFromKit} />
              </div>
            )}
            {report.reference.problems.map((entry) => (
              <p key={entry.where} className="demo-mark">
                {t('verifySet.referenceProblem', { where: entry.where, why: say(entry.why) })}
              </p>
            ))}
          </>
        ) : (
          <p>{t('verifySet.waiting')}</p>
        )}
      </div>
      {report && summary && (
        <>
          <SetResultLines report={report} />
          {saved && <p role="status">{saved}</p>}
        </>
      )}
      <div className="actions">
        <button type="button" disabled={!report} onClick={() => void save('pdf')}>
          {t('verifySet.saveReportPdf')}
        </button>
        <button type="button" disabled={!report} onClick={() => void save('csv')}>
          {t('verifySet.saveReportCsv')}
        </button>
        <button type="button" className="primary" onClick={onClose} autoFocus>
          {t('verifySet.close')}
        </button>
      </div>
    </Dialog>
  );
}
