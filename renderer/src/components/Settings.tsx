import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SavedProfileKind, ServiceProfile } from '../../../protocol/profiles';
import { EMBEDDED_PROFILE_ID } from '../../../protocol/profiles';
import type { ProfileKind } from '../../../protocol/profiles';
import { messageOf } from '../bridge';
import { readSettings } from '../calls/reads';
import { saveProfile, switchToProfile, testConnection } from '../calls/settings';
import { keys } from '../store';
import { Dialog } from './Dialog';
import type { Field, Secrets } from './settings-problems';
import { NO_SECRETS, problemsOf } from './settings-problems';
import { TsaFields } from './TsaFields';
import { PreferenceFields } from './PreferenceFields';
import { WatchedFolders } from './WatchedFolders';
import { useSay } from '../i18n';
import { Checkbox } from './Checkbox';

const ENVIRONMENTS: readonly ProfileKind[] = ['embedded', 'service-sandbox', 'production', 'custom'];

const NEW_PROFILE: ServiceProfile = {
  id: 'service',
  kind: 'production',
  baseUrl: '',
  tokenUrl: '',
  clientId: '',
  signRequests: false,
};
/** Where certifications go, and the preferences. Secrets typed here go straight to the keychain and never come back. */
export function Settings({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const say = useSay();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: keys.settings, queryFn: readSettings });
  const [kind, setKind] = useState<ProfileKind>('embedded');
  const [profile, setProfile] = useState<ServiceProfile>(NEW_PROFILE);
  const [secrets, setSecrets] = useState(NO_SECRETS);
  // Errors show once a field was left or Save/Test was tried, never while someone is still typing.
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [tried, setTried] = useState(false);
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);
  const id = useId();

  const loaded = settings.data;
  useEffect(() => {
    if (!loaded?.profile) return;
    setProfile(loaded.profile);
    setKind(loaded.profile.kind);
  }, [loaded]);

  // The keychain's secrets belong to the saved profile of that name only.
  const saved = loaded?.profile?.id === profile.id ? (loaded.secretsSet ?? null) : null;
  const problems = kind === 'embedded' ? {} : problemsOf(kind, profile, secrets, saved);
  const valid = Object.keys(problems).length === 0;
  const shown = (field: Field) => (tried || touched.has(field) ? problems[field] : undefined);

  // Any change makes the last test's answer stale: it said something about other values.
  const changed = () => setMessage(null);
  const editProfile = (change: Partial<ServiceProfile>) => {
    setProfile({ ...profile, ...change });
    changed();
  };

  const errorOf = (field: Field) => {
    const problem = shown(field);
    return problem ? (
      <p id={`${id}-${field}-error`} className="error field-error">
        {t(`settings.invalid.${problem}`)}
      </p>
    ) : null;
  };
  const described = (field: Field) => ({
    'aria-invalid': shown(field) ? true : undefined,
    'aria-describedby': shown(field) ? `${id}-${field}-error` : undefined,
    onBlur: () => setTouched((before) => new Set(before).add(field)),
  });
  const field = (
    name: 'id' | 'baseUrl' | 'tokenUrl' | 'clientId' | 'apiKey',
    label: string,
    type = 'text',
  ) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        type={type}
        value={profile[name] ?? ''}
        spellCheck={false}
        onChange={(event) => editProfile({ [name]: event.target.value })}
        {...(name === 'apiKey' ? {} : described(name))}
      />
      {name !== 'apiKey' && errorOf(name)}
    </div>
  );
  const secret = (name: keyof Secrets, label: string) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>
        {label} {saved?.[name] ? t('settings.savedSecret') : ''}
      </label>
      <input
        id={`${id}-${name}`}
        type="password"
        autoComplete="off"
        value={secrets[name]}
        onChange={(event) => {
          setSecrets({ ...secrets, [name]: event.target.value });
          changed();
        }}
        {...(name === 'api_secret' ? {} : described(name))}
      />
      {name !== 'api_secret' && errorOf(name)}
    </div>
  );

  const typedSecrets = () => Object.fromEntries(Object.entries(secrets).filter(([, value]) => value !== ''));
  const asTyped = () => ({ ...profile, kind: kind as SavedProfileKind });

  const save = async () => {
    setTried(true);
    if (!valid) return setMessage({ text: t('settings.fixFirst'), ok: false });
    try {
      if (kind === 'embedded') {
        await switchToProfile(EMBEDDED_PROFILE_ID);
      } else {
        await saveProfile({ profile: asTyped(), secrets: typedSecrets(), use: true });
      }
      setSecrets(NO_SECRETS);
      setMessage({ text: t('settings.saved'), ok: true });
      // A saved profile's settings (secrets set or not) are not queue changes: read them again here.
      void queryClient.invalidateQueries({ queryKey: keys.settings });
    } catch (error) {
      setMessage({ text: messageOf(error), ok: false });
    }
  };
  /** Tests the values on screen, saved or not: what would happen if they were saved now. */
  const test = async () => {
    setTried(true);
    if (!valid) return setMessage({ text: t('settings.fixFirst'), ok: false });
    setMessage({ text: t('settings.testing'), ok: true });
    try {
      const result = await testConnection(
        kind === 'embedded'
          ? { id: EMBEDDED_PROFILE_ID }
          : { unsaved: { profile: asTyped(), secrets: typedSecrets() } },
      );
      setMessage({
        text: result.ok
          ? t('settings.tested', { seconds: result.tokenSeconds })
          : result.message
            ? say(result.message)
            : '',
        ok: result.ok,
      });
    } catch (error) {
      setMessage({ text: messageOf(error), ok: false });
    }
  };
  return (
    <Dialog title={t('settings.title')} onClose={onClose} wide>
      <form onSubmit={(event) => (event.preventDefault(), void save())} noValidate>
        <div className="panel-body">
          {settings.isPending && <p className="hint">{t('settings.loading')}</p>}
          {settings.error && (
            <p className="error" role="alert">
              {t('settings.couldNotRead', { reason: messageOf(settings.error) })}
            </p>
          )}
          <fieldset>
            <legend>{t('settings.service')}</legend>
            <div className="field">
              <label htmlFor={`${id}-kind`}>{t('settings.environmentLabel')}</label>
              <select
                id={`${id}-kind`}
                value={kind}
                onChange={(event) => {
                  setKind(event.target.value as ProfileKind);
                  changed();
                }}
              >
                {ENVIRONMENTS.map((value) => (
                  <option key={value} value={value}>
                    {t(`settings.environments.${value}`)}
                  </option>
                ))}
              </select>
            </div>
            {kind !== 'embedded' && (
              <div className="grid">
                {field('id', t('settings.profileId'))}
                {field('clientId', t('settings.clientId'))}
                {field('baseUrl', t('settings.baseUrl'), 'url')}
                {field('tokenUrl', t('settings.tokenUrl'), 'url')}
                {secret('client_secret', t('settings.clientSecret'))}
                {field('apiKey', t('settings.apiKey'))}
                {secret('api_secret', t('settings.apiSecret'))}
                <Checkbox
                  checked={profile.signRequests}
                  onChange={(signRequests) => editProfile({ signRequests })}
                >
                  {t('settings.signRequests')}
                </Checkbox>
                {profile.signRequests && secret('hmac_key', t('settings.hmacKey'))}
                <div className="field wide-field">
                  <label htmlFor={`${id}-logKey`}>{t('settings.logKey')}</label>
                  <textarea
                    id={`${id}-logKey`}
                    rows={2}
                    spellCheck={false}
                    value={profile.logKey ?? ''}
                    onChange={(event) => editProfile({ logKey: event.target.value || undefined })}
                    {...described('logKey')}
                  />
                  {errorOf('logKey')}
                </div>
                <TsaFields
                  value={profile.tsa}
                  onChange={(tsa) => editProfile({ tsa })}
                  described={described}
                  errorOf={errorOf}
                />
              </div>
            )}
            {kind === 'embedded' && <p className="hint">{t('settings.tsa.embedded')}</p>}
          </fieldset>
          <PreferenceFields onProblem={(text) => setMessage({ text, ok: false })} />
          <WatchedFolders />
        </div>
        <div className="actions">
          <p className={`outcome ${message?.ok === false ? 'error' : 'hint'}`} role="status">
            {message?.text}
          </p>
          <button type="button" onClick={() => void test()}>
            {t('settings.test')}
          </button>
          <button type="button" onClick={onClose}>
            {t('settings.close')}
          </button>
          <button type="submit" className="primary">
            {t('settings.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
