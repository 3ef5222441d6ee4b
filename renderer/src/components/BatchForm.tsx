import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchMetadata } from '../../../protocol/certification-request';
import { EVENT_TYPE_PATTERN } from '../../../protocol/patterns';
import { ask, bridge } from '../bridge';
import { keys } from '../store';
import { Dialog } from './Dialog';

const ASSET_TYPES = ['document', 'contract', 'invoice', 'email', 'image', 'recording'];
const EVENT_TYPES = [
  'DOCUMENT_SIGNED',
  'DOCUMENT_RECEIVED',
  'DOCUMENT_SENT',
  'DOCUMENT_FILED',
  'EVIDENCE_COLLECTED',
];
const REMEMBERED = 'evidence-desk:last-batch';
const DEFAULTS: BatchMetadata = {
  asset_type: 'document',
  source_system: 'evidence-desk',
  event_type: 'DOCUMENT_SIGNED',
};

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

/** What the chosen files are and what happened to them: chosen once per batch, remembered for the next. */
export function BatchForm({
  count,
  onCertify,
  onCancel,
}: {
  count: number;
  onCertify(metadata: BatchMetadata): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const [metadata, setMetadata] = useState(rememberedMetadata);
  return (
    <Dialog title={t('batch.title', { count })} onClose={onCancel}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!metadataComplete(metadata)) return;
          localStorage.setItem(REMEMBERED, JSON.stringify(metadata));
          onCertify(metadata);
        }}
      >
        <p className="hint">{t('batch.explain')}</p>
        <MetadataFields metadata={metadata} onChange={setMetadata} />
        <div className="actions">
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

export const metadataComplete = (metadata: BatchMetadata): boolean =>
  EVENT_TYPE_PATTERN.test(metadata.event_type) &&
  metadata.asset_type.trim() !== '' &&
  metadata.source_system.trim() !== '';

/**
 * The matter, asset type, source system and event of a batch (or of what a watched folder
 * certifies), with the recent matters and the usual types offered.
 */
export function MetadataFields({
  metadata,
  onChange,
  withSourceSystem = true,
}: {
  metadata: BatchMetadata;
  onChange(metadata: BatchMetadata): void;
  withSourceSystem?: boolean;
}) {
  const { t } = useTranslation();
  const recentMatters = useQuery({ queryKey: keys.matters, queryFn: () => ask(bridge().matters({})) }).data
    ?.recent;
  const ids = { matter: useId(), asset: useId(), source: useId(), event: useId(), eventHelp: useId() };
  const eventValid = EVENT_TYPE_PATTERN.test(metadata.event_type);
  const change = (field: keyof BatchMetadata) => (event: React.ChangeEvent<HTMLInputElement>) =>
    onChange({
      ...metadata,
      [field]:
        field === 'event_type'
          ? event.target.value.toUpperCase().replace(/[\s-]+/g, '_')
          : event.target.value,
    });
  return (
    <>
      <label htmlFor={ids.matter}>{t('batch.matter')}</label>
      <input
        id={ids.matter}
        list={`${ids.matter}-recent`}
        value={metadata.matter ?? ''}
        onChange={change('matter')}
        maxLength={64}
        autoComplete="off"
      />
      <datalist id={`${ids.matter}-recent`}>
        {(recentMatters ?? []).map((matter) => (
          <option key={matter} value={matter} />
        ))}
      </datalist>
      <label htmlFor={ids.asset}>{t('batch.assetType')}</label>
      <input
        id={ids.asset}
        list={`${ids.asset}-presets`}
        value={metadata.asset_type}
        onChange={change('asset_type')}
        required
        maxLength={64}
      />
      <datalist id={`${ids.asset}-presets`}>
        {ASSET_TYPES.map((type) => (
          <option key={type} value={type} />
        ))}
      </datalist>
      {withSourceSystem && (
        <>
          <label htmlFor={ids.source}>{t('batch.sourceSystem')}</label>
          <input
            id={ids.source}
            value={metadata.source_system}
            onChange={change('source_system')}
            required
            maxLength={128}
          />
        </>
      )}
      <label htmlFor={ids.event}>{t('batch.event')}</label>
      <input
        id={ids.event}
        list={`${ids.event}-presets`}
        value={metadata.event_type}
        onChange={change('event_type')}
        aria-invalid={!eventValid}
        aria-describedby={ids.eventHelp}
        maxLength={64}
      />
      <datalist id={`${ids.event}-presets`}>
        {EVENT_TYPES.map((type) => (
          <option key={type} value={type} />
        ))}
      </datalist>
      <p id={ids.eventHelp} className={eventValid ? 'hint' : 'error'}>
        {eventValid ? t('batch.eventHint') : t('batch.eventInvalid')}
      </p>
    </>
  );
}
