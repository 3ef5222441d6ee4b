import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TsaSettings } from '../../../protocol/profiles';
import { WELL_KNOWN_TSAS } from '../../../protocol/profiles';
import { Checkbox } from './Checkbox';

export type TsaField = 'tsaUrl' | 'tsaPolicy' | 'tsaCa' | 'tsaInterval';

const NO_TSA: TsaSettings = { url: '', trustedCertificates: '' };

/**
 * Independent time for a service profile: the timestamping authority (RFC 3161) of the user's
 * choosing, or none. Well-known public authorities are offered as addresses only: nothing is
 * fetched, and the root to trust one by is pasted by the user from the authority's own site.
 */
export function TsaFields({
  value,
  onChange,
  described,
  errorOf,
}: {
  value: TsaSettings | undefined;
  onChange(value: TsaSettings | undefined): void;
  described(field: TsaField): object;
  errorOf(field: TsaField): ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const tsa = value ?? NO_TSA;
  const edit = (change: Partial<TsaSettings>) => onChange({ ...tsa, ...change });
  return (
    <fieldset className="wide-field tsa">
      <legend>{t('settings.tsa.title')}</legend>
      <Checkbox checked={value !== undefined} onChange={(use) => onChange(use ? NO_TSA : undefined)}>
        {t('settings.tsa.use')}
      </Checkbox>
      {value !== undefined && (
        <div className="grid">
          <div className="field">
            <label htmlFor={`${id}-url`}>{t('settings.tsa.url')}</label>
            <input
              id={`${id}-url`}
              type="url"
              list={`${id}-suggestions`}
              spellCheck={false}
              value={tsa.url}
              onChange={(event) => {
                // A well-known authority brings the pace it publishes, unless one was entered.
                const known = WELL_KNOWN_TSAS.find(
                  (candidate) => candidate.url === event.target.value.trim(),
                );
                edit({
                  url: event.target.value,
                  ...(known && tsa.minIntervalSeconds === undefined && known.minIntervalSeconds
                    ? { minIntervalSeconds: known.minIntervalSeconds }
                    : {}),
                });
              }}
              {...described('tsaUrl')}
            />
            <datalist id={`${id}-suggestions`}>
              {WELL_KNOWN_TSAS.map((known) => (
                <option key={known.url} value={known.url} label={known.name} />
              ))}
            </datalist>
            {errorOf('tsaUrl')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-policy`}>{t('settings.tsa.policy')}</label>
            <input
              id={`${id}-policy`}
              spellCheck={false}
              value={tsa.policyOid ?? ''}
              onChange={(event) => edit({ policyOid: event.target.value || undefined })}
              {...described('tsaPolicy')}
            />
            {errorOf('tsaPolicy')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-interval`}>{t('settings.tsa.interval')}</label>
            <input
              id={`${id}-interval`}
              type="number"
              inputMode="numeric"
              min={0}
              max={86_400}
              step={1}
              value={tsa.minIntervalSeconds ?? ''}
              onChange={(event) =>
                edit({
                  minIntervalSeconds: event.target.value === '' ? undefined : Number(event.target.value),
                })
              }
              {...described('tsaInterval')}
            />
            {errorOf('tsaInterval')}
            <p className="hint">{t('settings.tsa.intervalHint')}</p>
          </div>
          <p className="hint wide-field">
            {t('settings.tsa.suggestions', { names: WELL_KNOWN_TSAS.map((known) => known.name).join(', ') })}
          </p>
          <div className="field wide-field">
            <label htmlFor={`${id}-roots`}>{t('settings.tsa.roots')}</label>
            <textarea
              id={`${id}-roots`}
              rows={3}
              spellCheck={false}
              value={tsa.trustedCertificates}
              onChange={(event) => edit({ trustedCertificates: event.target.value })}
              {...described('tsaCa')}
            />
            {errorOf('tsaCa')}
          </div>
        </div>
      )}
    </fieldset>
  );
}
