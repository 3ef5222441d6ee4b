import { useEffect, useId, useState } from 'react';
import { bridge, call } from '../bridge';
import { store } from '../store';

interface Profile {
  id: string;
  kind: 'service-sandbox' | 'production' | 'custom';
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  apiKey?: string;
  signRequests: boolean;
}
interface SettingsView {
  active: string;
  profile: Profile | null;
  secretsSet: Record<'client_secret' | 'api_secret' | 'hmac_key', boolean> | null;
}

const ENVIRONMENTS = [
  ['embedded', 'Embedded sandbox (demo, no credentials)'],
  ['service-sandbox', 'The service’s sandbox'],
  ['production', 'Production'],
  ['custom', 'Custom'],
] as const;

/** Where certifications go. Secrets typed here go straight to the system keychain and never come back. */
export function Settings({ onClose }: { onClose(): void }) {
  const [view, setView] = useState<SettingsView | null>(null);
  const [kind, setKind] = useState<string>('embedded');
  const [profile, setProfile] = useState<Profile>({
    id: 'service',
    kind: 'production',
    baseUrl: '',
    tokenUrl: '',
    clientId: '',
    signRequests: false,
  });
  const [secrets, setSecrets] = useState({ client_secret: '', api_secret: '', hmac_key: '' });
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);
  const id = useId();

  useEffect(() => {
    void call<SettingsView>(bridge().settings({})).then((loaded) => {
      setView(loaded);
      if (loaded.profile) {
        setProfile(loaded.profile);
        setKind(loaded.profile.kind);
      }
    });
  }, []);

  const field = (name: keyof Profile, label: string, type = 'text') => (
    <>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        type={type}
        value={String(profile[name] ?? '')}
        onChange={(event) => setProfile({ ...profile, [name]: event.target.value })}
      />
    </>
  );
  const secret = (name: keyof typeof secrets, label: string) => (
    <>
      <label htmlFor={`${id}-${name}`}>
        {label} {view?.secretsSet?.[name] ? '(saved in the keychain — type to replace)' : ''}
      </label>
      <input
        id={`${id}-${name}`}
        type="password"
        autoComplete="off"
        value={secrets[name]}
        onChange={(event) => setSecrets({ ...secrets, [name]: event.target.value })}
      />
    </>
  );

  const save = async () => {
    try {
      if (kind === 'embedded') {
        await call(bridge().useProfile({ id: 'embedded' }));
      } else {
        const filled = Object.fromEntries(Object.entries(secrets).filter(([, value]) => value !== ''));
        await call(
          bridge().saveProfile({ profile: { ...profile, kind: kind as Profile['kind'] }, secrets: filled }),
        );
        await call(bridge().useProfile({ id: profile.id }));
      }
      setSecrets({ client_secret: '', api_secret: '', hmac_key: '' });
      setMessage({ text: 'Saved.', ok: true });
      void store.refreshStatus();
      store.refreshRows();
    } catch (error) {
      setMessage({ text: (error as Error).message, ok: false });
    }
  };
  const test = async () => {
    const result = await call<{ ok: boolean; message: string }>(
      bridge().testConnection({ id: kind === 'embedded' ? 'embedded' : profile.id }),
    );
    setMessage({ text: result.message, ok: result.ok });
  };

  return (
    <div className="modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
      <form className="panel wide" onSubmit={(event) => (event.preventDefault(), void save())}>
        <h2 id={`${id}-title`}>Settings</h2>
        <label htmlFor={`${id}-kind`}>Environment</label>
        <select id={`${id}-kind`} value={kind} onChange={(event) => setKind(event.target.value)}>
          {ENVIRONMENTS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {kind !== 'embedded' && (
          <div className="grid">
            {field('id', 'Profile name (lower case)')}
            {field('baseUrl', 'Service address (base URL)', 'url')}
            {field('tokenUrl', 'Token address (token URL)', 'url')}
            {field('clientId', 'Client id')}
            {secret('client_secret', 'Client secret')}
            {field('apiKey', 'API key (optional)')}
            {secret('api_secret', 'API secret (optional)')}
            {secret('hmac_key', 'Signing key (HMAC)')}
            <label className="check">
              <input
                type="checkbox"
                checked={profile.signRequests}
                onChange={(event) => setProfile({ ...profile, signRequests: event.target.checked })}
              />{' '}
              Sign requests
            </label>
          </div>
        )}
        {message && (
          <p className={message.ok ? 'hint' : 'error'} role="status">
            {message.text}
          </p>
        )}
        <div className="actions">
          <button type="button" onClick={() => void test()}>
            Test connection
          </button>
          <button type="button" onClick={onClose}>
            Close
          </button>
          <button type="submit" className="primary">
            Save
          </button>
        </div>
      </form>
    </div>
  );
}
