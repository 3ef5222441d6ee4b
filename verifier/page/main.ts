import type { Receipt, ReceiptVerdict } from '../../protocol/receipt';
import { localWithZone } from '../../protocol/time-format';
import { LimitExceeded } from '../../protocol/limits';
import { SEAL_BROKEN_HEADLINE, SEAL_WORDS } from '../pdf/seal-check';
import type { FactLine } from '../../protocol/fact-lines';
import { FACT_LABELS, STATED_HEADING, verdictFactLines } from '../../protocol/fact-lines';
import { DEMO_VERDICT_NOTICE, VERDICT_HEADLINES } from '../verify-receipt';
import { chosenFile } from './set-check';
import { kitSays, trusted } from './kit-trust';
import type { PageChecks } from './worker-link';
import { checksHere, checksInWorker, serveChecks } from './worker-link';
import { fingerprintInGroups } from '../../protocol/fingerprint-groups';
import type { Language } from '../../protocol/locales/languages';
import { languageFor } from '../../protocol/locales/languages';
import { showSetLines, showSetResult } from './set-view';
import { plainT } from '../../protocol/locales/plain';
import type { TFunction } from 'i18next';
import { factWords, sealStandingWords, sealWords, whyOf } from '../../protocol/locales/verdict-words';
import type { PageWords } from './page-words';
import { PAGE_WORDS, filled, putWords } from './page-words';

/** The page's language: the browser's, until the reader chooses another. */
let language: Language = languageFor('system', navigator.languages ?? [navigator.language]);
const words = (): PageWords => PAGE_WORDS[language];
/** The app's catalogue in the page's language, read without i18next (the same sentences as the app's). */
const app = () => plainT(language, 'app') as unknown as TFunction<'app'>;
// The exact value signed (to the millisecond) beside the reader's local time: a reader compares it.
const when = (iso: string) => `${localWithZone(Date.parse(iso), { locale: language })} — ${iso}`;

/**
 * verify.html: the other side's verifier. Reads the document and its receipt or certificate
 * locally (the page's policy forbids every network request), and says in plain words what holds.
 */
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const LOOKS: Record<ReceiptVerdict['verdict'], 'verified' | 'failed' | 'warning'> = {
  verified: 'verified',
  content_differs: 'failed',
  receipt_invalid: 'failed',
  untrusted_key: 'warning',
  not_anchored: 'warning',
  timestamp_invalid: 'failed',
  untrusted_tsa: 'warning',
};

let documentFile: File | undefined;
let proofFile: File | undefined;
let run = 0;

/** Where the heavy work runs: the page's worker, set when the page starts. */
let checks: PageChecks = checksHere;

/** Dropped files are sorted by what they are: a receipt or certificate is the proof, anything else the document. */
async function take(files: File[]): Promise<void> {
  for (const file of files) {
    if ((await checks.isProof(file)) && (proofFile === undefined || files.length > 1)) proofFile = file;
    else documentFile = file;
  }
  await check();
}

function show(
  kind: 'idle' | 'verified' | 'failed' | 'warning',
  headline: string,
  text: string,
  demo = false,
): void {
  const result = $('result');
  result.className = `result ${kind}`;
  result.replaceChildren();
  const strong = document.createElement('strong');
  strong.textContent = headline;
  result.append(strong, document.createTextNode(text));
  if (demo) {
    const mark = document.createElement('p');
    mark.className = 'demo';
    mark.textContent = language === 'en' ? DEMO_VERDICT_NOTICE : app()('verify.why.demo');
    result.append(mark);
  }
}

/** The document, then what someone signed, then apart what nobody signed: each a list of its own. */
function facts(verdict: ReceiptVerdict, receipt: Receipt | undefined, documentHash: string): void {
  const box = $('facts');
  box.replaceChildren();
  box.hidden = false;
  const english = language === 'en';
  // The document's own lines, then the verdict's facts labelled as every verifier labels them.
  type Line = { label: string; value: string; time?: string; mono?: boolean };
  const labelled = (line: FactLine): Line => {
    const [label, value] = english ? [FACT_LABELS[line.key], line.value] : factWords(line, app(), when);
    return {
      label,
      value,
      time: line.time,
      mono: line.key === 'certificationId' || line.key === 'keyFingerprint',
    };
  };
  const group = (title: string | null, lines: Line[]) => {
    if (lines.length === 0) return;
    if (title) {
      const heading = document.createElement('h3');
      heading.textContent = title;
      box.append(heading);
    }
    const list = document.createElement('dl');
    for (const line of lines) {
      const dt = document.createElement('dt');
      dt.textContent = line.label;
      const dd = document.createElement('dd');
      dd.textContent = line.time ? when(line.time) : line.value;
      if (line.mono) dd.className = 'mono';
      list.append(dt, dd);
    }
    box.append(list);
  };
  const w = words();
  group(null, [
    {
      label: w.thisDocument,
      value: filled(w.bytes, {
        name: documentFile?.name ?? '',
        size: documentFile?.size.toLocaleString(language) ?? 0,
      }),
    },
    { label: w.itsSha256, value: documentHash, mono: true },
    ...(receipt?.file ? [{ label: w.certifiedSha256, value: receipt.file.sha256, mono: true }] : []),
  ]);
  const { signed, stated } = verdictFactLines(verdict);
  group(english ? 'Signed' : app()('verify.signedHeading'), signed.map(labelled));
  group(english ? STATED_HEADING : app()('verify.statedHeading'), stated.map(labelled));
}

async function check(): Promise<void> {
  const current = ++run;
  const w = words();
  $('chosen').textContent = [
    documentFile ? filled(w.chosenDocument, { name: documentFile.name }) : w.noDocument,
    proofFile ? filled(w.chosenProof, { name: proofFile.name }) : w.noProof,
  ].join(' · ');
  if (!documentFile || !proofFile) {
    show('idle', '', documentFile ? w.giveProof : w.giveDocument);
    return;
  }
  const progress = $<HTMLProgressElement>('progress');
  progress.hidden = false;
  show('idle', w.checking, filled(w.reading, { name: documentFile.name }));
  const outcome = await checks.document(documentFile, proofFile, trusted(), (done) => {
    if (current === run) progress.value = done;
  });
  if (current !== run) return;
  progress.hidden = true;
  if ('refused' in outcome) {
    const bound =
      language === 'en'
        ? new LimitExceeded(outcome.refused).message
        : plainT(language, 'said')(`limits.${outcome.refused}`);
    show('failed', w.refused, `${proofFile.name}: ${bound}`);
    return;
  }
  if ('missing' in outcome) {
    show('failed', w.noReceipt, `${proofFile.name} ${w.noReceiptIn[outcome.missing]}`);
    return;
  }
  const { verdict, seal, demo, documentHash, receipt } = outcome;
  // A broken seal is never shown as a plain success.
  const sealBroken = seal?.state === 'broken' && verdict.verdict === 'verified';
  // The verifier's own sentences are English; other languages say the app's, from the same codes.
  const english = language === 'en';
  const t = app();
  show(
    sealBroken ? 'warning' : LOOKS[verdict.verdict],
    english
      ? sealBroken
        ? SEAL_BROKEN_HEADLINE
        : VERDICT_HEADLINES[verdict.verdict]
      : t(sealBroken ? 'verify.verdicts.verifiedSealBroken' : `verify.verdicts.${verdict.verdict}`),
    english
      ? [verdict.message, seal ? SEAL_WORDS[seal.state] : '', sealStandingWords(seal, t)].join(' ')
      : [whyOf(verdict, t, when), sealWords(seal, t, when)].join(' '),
    demo,
  );
  facts(verdict, receipt, documentHash);
}

function start(): void {
  // The page's own script, started again in a worker, does the heavy work there.
  checks = checksInWorker(document.currentScript?.textContent ?? '') ?? checksHere;
  const kit = kitSays();
  // Made on a sandbox: said before anything is dropped, and again with each verdict.
  $('kit-demo').hidden = !kit.demo;
  $('kit-keys').hidden = kit.logKeys.length + kit.tsaRoots.length === 0;
  const sayAll = () => {
    const w = words();
    document.documentElement.lang = language;
    document.title = w.title;
    for (const element of document.querySelectorAll<HTMLElement>('[data-words]'))
      putWords(element, w[element.dataset.words as keyof PageWords] as string);
    for (const input of document.querySelectorAll<HTMLInputElement>('[data-placeholder]'))
      input.placeholder = w[input.dataset.placeholder as keyof PageWords] as string;
    $('kit-key-list').replaceChildren(
      ...[
        ...kit.logKeys.map((key) => filled(w.logKey, { fingerprint: fingerprintInGroups(key) })),
        ...kit.tsaRoots.map((root) => filled(w.tsaRoot, { fingerprint: fingerprintInGroups(root) })),
      ].map((text) => Object.assign(document.createElement('li'), { textContent: text })),
    );
  };
  const choice = $<HTMLSelectElement>('language');
  choice.value = language;
  sayAll();
  choice.addEventListener('change', () => {
    language = choice.value as Language;
    sayAll();
    void check();
    checkSet();
  });
  $<HTMLInputElement>('trust-kit').addEventListener('change', () => {
    void check();
    checkSet();
  });
  $<HTMLInputElement>('document').addEventListener('change', (event) => {
    documentFile = (event.target as HTMLInputElement).files?.[0];
    void check();
  });
  $<HTMLInputElement>('proof').addEventListener('change', (event) => {
    proofFile = (event.target as HTMLInputElement).files?.[0];
    void check();
  });
  $<HTMLInputElement>('extra-key').addEventListener('input', () => void check());
  $<HTMLInputElement>('extra-tsa-root').addEventListener('input', () => void check());
  const setFolder = $<HTMLInputElement>('set-folder');
  const setKit = $<HTMLInputElement>('set-kit');
  function checkSet() {
    const documents = [...(setFolder.files ?? [])];
    const kitFiles = [...(setKit.files ?? [])];
    if (!documents.length || !kitFiles.length) return;
    const progress = $<HTMLProgressElement>('set-progress');
    progress.hidden = false;
    void checks.production(documents.map(chosenFile), kitFiles.map(chosenFile), trusted(), language, {
      progress: (fraction) => (progress.value = fraction),
      result: (kind, headline, text, demo, seal) => {
        progress.hidden = true;
        showSetResult(
          $('set-result'),
          kind,
          headline,
          text,
          demo ? plainT(language, 'cli')('sets.demo') : null,
          seal,
        );
      },
      lines: (shown, total, counts) =>
        showSetLines(
          {
            table: $<HTMLTableElement>('set-table'),
            caption: $('set-lines-shown'),
            filters: $('set-filters'),
          },
          { shown, total, counts },
          { language, app: app(), when, linesShown: words().linesShown },
        ),
    });
  }
  setFolder.addEventListener('change', checkSet);
  setKit.addEventListener('change', checkSet);
  const drop = $('drop');
  // Dropping anywhere on the page counts; the browser must not open the file instead.
  window.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
  window.addEventListener('dragleave', () => drop.classList.remove('over'));
  window.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    void take([...(event.dataTransfer?.files ?? [])]);
  });
}

// verify.html is one script: in the page it starts the page; in its worker it serves the checks.
if (typeof document === 'undefined') serveChecks(self as unknown as Parameters<typeof serveChecks>[0]);
else start();
