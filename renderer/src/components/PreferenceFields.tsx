import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { LanguageChoice } from '../../../protocol/locales/languages';
import { LANGUAGES, LANGUAGE_NAMES, languageFor } from '../../../protocol/locales/languages';
import { messageOf } from '../bridge';
import { readSettings } from '../calls/reads';
import { savePreferences } from '../calls/settings';
import { systemLanguages } from '../i18n';
import { keys } from '../store';
import { Checkbox } from './Checkbox';

/**
 * Settings' "You" and "Preferences": who certifies, the source system, the language, receipts
 * beside files and launch at login, each saved as it is changed; a failure is said by `onProblem`.
 */
export function PreferenceFields({ onProblem }: { onProblem(text: string): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const loaded = useQuery({ queryKey: keys.settings, queryFn: readSettings }).data;
  // A ticked preference shows ticked at once, while main saves it.
  const [chosen, setChosen] = useState<{ receiptsBesideFiles?: boolean; launchAtLogin?: boolean }>({});
  const id = useId();
  const prefer = async (preferences: {
    receiptsBesideFiles?: boolean;
    language?: LanguageChoice;
    launchAtLogin?: boolean;
    sourceSystem?: string;
    certifierName?: string;
    certifierFirm?: string;
  }) => {
    setChosen((before) => ({ ...before, ...preferences }));
    try {
      await savePreferences(preferences);
      void queryClient.invalidateQueries({ queryKey: keys.settings });
    } catch (error) {
      setChosen({});
      onProblem(messageOf(error));
    }
  };

  const systemName = LANGUAGE_NAMES[languageFor('system', systemLanguages())];
  return (
    <>
      <fieldset>
        <legend>{t('settings.you')}</legend>
        {loaded && (
          <>
            <TextPreference
              id={`${id}-name`}
              label={t('batch.yourName')}
              value={loaded.certifier.name ?? ''}
              onSave={(certifierName) => void prefer({ certifierName })}
            />
            <TextPreference
              id={`${id}-firm`}
              label={t('batch.yourFirm')}
              value={loaded.certifier.firm ?? ''}
              onSave={(certifierFirm) => void prefer({ certifierFirm })}
            />
            <TextPreference
              id={`${id}-source`}
              label={t('settings.sourceSystem')}
              hint={
                loaded.sourceSystem.byPolicy
                  ? t('settings.sourceSystemByPolicy')
                  : t('settings.sourceSystemHint')
              }
              value={loaded.sourceSystem.name}
              disabled={loaded.sourceSystem.byPolicy}
              onSave={(sourceSystem) => void prefer({ sourceSystem })}
            />
          </>
        )}
      </fieldset>
      <fieldset>
        <legend>{t('settings.preferences')}</legend>
        <div className="field">
          <label htmlFor={`${id}-language`}>{t('settings.language')}</label>
          <select
            id={`${id}-language`}
            value={loaded?.language ?? 'system'}
            onChange={(event) => void prefer({ language: event.target.value as LanguageChoice })}
          >
            <option value="system">{t('settings.systemLanguage', { name: systemName })}</option>
            {LANGUAGES.map((language) => (
              <option key={language} value={language} lang={language}>
                {LANGUAGE_NAMES[language]}
              </option>
            ))}
          </select>
        </div>
        <Checkbox
          checked={chosen.receiptsBesideFiles ?? loaded?.receiptsBesideFiles ?? false}
          onChange={(receiptsBesideFiles) => void prefer({ receiptsBesideFiles })}
        >
          <span>
            <Trans i18nKey="settings.receiptsBeside" components={{ code: <code /> }} />
          </span>
        </Checkbox>
        {loaded?.launchAtLogin !== null && loaded?.launchAtLogin !== undefined && (
          <Checkbox
            checked={chosen.launchAtLogin ?? loaded.launchAtLogin}
            onChange={(launchAtLogin) => void prefer({ launchAtLogin })}
          >
            {t('settings.launchAtLogin')}
          </Checkbox>
        )}
      </fieldset>
    </>
  );
}

/** A text setting saved when the person leaves the field (or presses Enter), not on every key. */
function TextPreference({
  id,
  label,
  hint,
  value,
  disabled = false,
  onSave,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  disabled?: boolean;
  onSave(value: string): void;
}) {
  const [draft, setDraft] = useState(value);
  const save = () => {
    if (draft.trim() !== value) onSave(draft);
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={draft}
        disabled={disabled}
        maxLength={128}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={save}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            save();
          }
        }}
      />
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
}
