import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchMetadata } from '../../../protocol/certification-request';
import { EVENT_TYPE_PATTERN } from '../../../protocol/patterns';
import { readMatters, readSettings } from '../calls/reads';
import { rememberCertifier } from '../actions';
import { keys } from '../store';
import { Dialog } from './Dialog';
import { useFormat, useSay } from '../i18n';
import { EVENTS, KINDS, eventSaid, kindSaid } from '../../../protocol/vocabulary';

const REMEMBERED = 'evidence-desk:last-batch';
// What happened is signed into the log with the file: never chosen for the person. The first
// batch asks; later ones offer the last choice.
const NOT_CHOSEN = '-';
const DEFAULTS: BatchMetadata = {
  asset_type: 'document',
  source_system: 'evidence-desk',
  event_type: NOT_CHOSEN,
};
// The files a batch lists by name; the rest are counted.
const NAMES_SHOWN = 5;

export function rememberedMetadata(): BatchMetadata {
  try {
    return {
      ...DEFAULTS,
      ...(JSON.parse(localStorage.getItem(REMEMBERED) ?? '{}') as Partial<BatchMetadata>),
    };
  } catch {
    return DEFAULTS;
  }
}

/**
 * What the chosen files are and what happened to them: chosen once per batch, remembered for the
 * next. The files are named (the first few, and how many more); the first time, the person says
 * who they are, once. The source system is a setting, not asked here.
 */
export function BatchForm({
  paths,
  onCertify,
  onCancel,
}: {
  paths: string[];
  onCertify(metadata: BatchMetadata): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [metadata, setMetadata] = useState(rememberedMetadata);
  const settings = useQuery({ queryKey: keys.settings, queryFn: readSettings }).data;
  const [certifier, setCertifier] = useState({ name: '', firm: '' });
  // Why the batch could not start (the name typed could not be kept), said in the form itself.
  const [problem, setProblem] = useState<string | null>(null);
  const askWho = settings !== undefined && !settings.certifier.name;
  const names = paths.slice(0, NAMES_SHOWN).map((path) => path.split(/[\\/]/).filter(Boolean).at(-1) ?? path);
  return (
    <Dialog title={t('batch.title', { count: paths.length })} onClose={onCancel}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!metadataComplete(metadata)) return;
          localStorage.setItem(REMEMBERED, JSON.stringify(metadata));
          void (async () => {
            const notKept = askWho && certifier.name.trim() ? await rememberCertifier(certifier) : null;
            setProblem(notKept);
            if (notKept) return;
            onCertify({ ...metadata, source_system: settings?.sourceSystem.name ?? metadata.source_system });
          })();
        }}
      >
        {/* What is recorded first: on a small window it must not sit below the button. */}
        <MetadataFields metadata={metadata} onChange={setMetadata} />
        {askWho && <WhoFields value={certifier} onChange={setCertifier} />}
        <ul className="batch-files" aria-label={t('batch.files')}>
          {names.map((name, index) => (
            <li key={`${index}:${name}`}>{name}</li>
          ))}
          {paths.length > names.length && (
            <li className="hint">
              {t('batch.moreFiles', {
                count: paths.length - names.length,
                number: format.number(paths.length - names.length),
              })}
            </li>
          )}
        </ul>
        <p className="hint">{t('batch.explain')}</p>
        {/* Beside the buttons, which stay in view: on a small window the form scrolls. */}
        <div className="actions">
          {problem && (
            <p className="outcome error" role="alert">
              {problem}
            </p>
          )}
          <button type="button" onClick={onCancel}>
            {t('batch.cancel')}
          </button>
          <button type="submit" className="primary" disabled={!metadataComplete(metadata)}>
            {t('batch.certify')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Who certifies, asked once (the first batch) and kept in Settings: a name and a firm. */
export function WhoFields({
  value,
  onChange,
}: {
  value: { name: string; firm: string };
  onChange(value: { name: string; firm: string }): void;
}) {
  const { t } = useTranslation();
  const ids = { name: useId(), firm: useId(), help: useId() };
  return (
    <fieldset className="who">
      <legend>{t('batch.who')}</legend>
      <p id={ids.help} className="hint">
        {t('batch.whoHint')}
      </p>
      <label htmlFor={ids.name}>{t('batch.yourName')}</label>
      <input
        id={ids.name}
        value={value.name}
        onChange={(event) => onChange({ ...value, name: event.target.value })}
        maxLength={128}
        autoComplete="name"
        aria-describedby={ids.help}
      />
      <label htmlFor={ids.firm}>{t('batch.yourFirm')}</label>
      <input
        id={ids.firm}
        value={value.firm}
        onChange={(event) => onChange({ ...value, firm: event.target.value })}
        maxLength={128}
        autoComplete="organization"
      />
    </fieldset>
  );
}

export const metadataComplete = (metadata: BatchMetadata): boolean =>
  EVENT_TYPE_PATTERN.test(metadata.event_type) &&
  metadata.asset_type.trim() !== '' &&
  metadata.source_system.trim() !== '';

// The choice "something else": a field for the service's code (an event) or any word (a kind).
const OTHER = '';

/**
 * The matter, kind of document and event of a batch (or of what a watched folder certifies): the
 * recent matters offered, and kinds and events as words, each one the service's code. "Other…"
 * keeps a custom one possible.
 */
export function MetadataFields({
  metadata,
  onChange,
}: {
  metadata: BatchMetadata;
  onChange(metadata: BatchMetadata): void;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const recentMatters = useQuery({ queryKey: keys.matters, queryFn: readMatters }).data?.recent;
  const matterId = useId();
  const eventValid = EVENT_TYPE_PATTERN.test(metadata.event_type);
  const set = (field: keyof BatchMetadata, value: string) => onChange({ ...metadata, [field]: value });
  return (
    <>
      <label htmlFor={matterId}>{t('batch.matter')}</label>
      <input
        id={matterId}
        list={`${matterId}-recent`}
        value={metadata.matter ?? ''}
        onChange={(event) => set('matter', event.target.value)}
        maxLength={64}
        autoComplete="off"
      />
      <datalist id={`${matterId}-recent`}>
        {(recentMatters ?? []).map((matter) => (
          <option key={matter} value={matter} />
        ))}
      </datalist>
      <WordsOrOther
        label={t('batch.assetType')}
        codes={KINDS}
        wordsOf={(kind) => say(kindSaid(kind))}
        other={t('batch.otherKind')}
        otherLabel={t('batch.otherKindLabel')}
        value={metadata.asset_type}
        onChange={(value) => set('asset_type', value)}
      />
      <WordsOrOther
        label={t('batch.event')}
        codes={EVENTS}
        wordsOf={(code) => say(eventSaid(code))}
        other={t('batch.otherEvent')}
        otherLabel={t('batch.otherEventLabel')}
        notChosen={t('batch.chooseEvent')}
        value={metadata.event_type}
        // The service's codes are capital letters and underscores: words typed become one.
        onChange={(value) => set('event_type', value.toUpperCase().replace(/[\s-]+/g, '_'))}
        help={{ valid: eventValid, text: eventValid ? t('batch.eventHint') : t('batch.eventInvalid') }}
      />
    </>
  );
}

/**
 * One of the service's codes, chosen by its words; "other…" opens a field for one of the
 * person's own (checked as typed, when `help` says how).
 */
function WordsOrOther({
  label,
  codes,
  wordsOf,
  other,
  otherLabel,
  value,
  onChange,
  help,
  notChosen,
}: {
  label: string;
  codes: readonly string[];
  wordsOf(code: string): string;
  other: string;
  otherLabel: string;
  value: string;
  onChange(value: string): void;
  help?: { valid: boolean; text: string };
  /** Said until the person chooses, when nothing may be chosen for them. */
  notChosen?: string;
}) {
  const ids = { choice: useId(), other: useId(), help: useId() };
  const unchosen = notChosen !== undefined && value === NOT_CHOSEN;
  const known = unchosen || codes.includes(value);
  return (
    <>
      <label htmlFor={ids.choice}>{label}</label>
      <select
        id={ids.choice}
        value={known ? value : OTHER}
        onChange={(event) => onChange(event.target.value)}
        required={notChosen !== undefined}
      >
        {unchosen && (
          <option value={NOT_CHOSEN} disabled>
            {notChosen}
          </option>
        )}
        {codes.map((code) => (
          <option key={code} value={code}>
            {wordsOf(code)}
          </option>
        ))}
        <option value={OTHER}>{other}</option>
      </select>
      {!known && (
        <>
          <label htmlFor={ids.other}>{otherLabel}</label>
          <input
            id={ids.other}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            required
            aria-invalid={help ? !help.valid : undefined}
            aria-describedby={help ? ids.help : undefined}
            maxLength={64}
          />
          {help && (
            <p id={ids.help} className={help.valid ? 'hint' : 'error'}>
              {help.text}
            </p>
          )}
        </>
      )}
    </>
  );
}
