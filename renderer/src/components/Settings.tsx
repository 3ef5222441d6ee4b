import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { SavedProfileKind, ServiceProfile } from '../../../protocol/profiles';
import { EMBEDDED_PROFILE_ID } from '../../../protocol/profiles';
import { ask, bridge, messageOf } from '../bridge';
import { keys } from '../store';
import { Dialog } from './Dialog';

const ENVIRONMENTS = [
  ['embedded', 'Embedded sandbox (demo, no credentials)'],
  ['service-sandbox', 'The service’s sandbox'],
  ['production', 'Production'],
  ['custom', 'Custom'],
] as const;
type Environment = (typeof ENVIRONMENTS)[number][0];

const NEW_PROFILE: ServiceProfile = {
  id: 'service',
  kind: 'production',
  baseUrl: '',
  tokenUrl: '',
  clientId: '',
  signRequests: false,
};
const NO_SECRETS = { client_secret: '', api_secret: '', hmac_key: '' };

/** Where certifications go. Secrets typed here go straight to the system keychain and never come back. */
export function Settings({ onClose }: { onClose(): void }) {
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: keys.settings, queryFn: () => ask(bridge().settings({})) });
  const [kind, setKind] = useState<Environment>('embedded');
  const [profile, setProfile] = useState<ServiceProfile>(NEW_PROFILE);
  const [secrets, setSecrets] = useState(NO_SECRETS);
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);
  const id = useId();

  const loaded = settings.data;
  useEffect(() => {
    if (!loaded?.profile) return;
    setProfile(loaded.profile);
    setKind(loaded.profile.kind);
  }, [loaded]);

  const field = (
    name: 'id' | 'baseUrl' | 'tokenUrl' | 'clientId' | 'apiKey',
    label: string,
    type = 'text',
  ) => (
    <>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        type={type}
        value={profile[name] ?? ''}
        onChange={(event) => setProfile({ ...profile, [name]: event.target.value })}
      />
    </>
  );
  const secret = (name: keyof typeof secrets, label: string) => (
    <>
      <label htmlFor={`${id}-${name}`}>
        {label} {loaded?.secretsSet?.[name] ? '(saved in the keychain — type to replace)' : ''}
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
        await ask(bridge().useProfile({ id: EMBEDDED_PROFILE_ID }));
      } else {
        const filled = Object.fromEntries(Object.entries(secrets).filter(([, value]) => value !== ''));
        await ask(
          bridge().saveProfile({
            profile: { ...profile, kind: kind satisfies SavedProfileKind },
            secrets: filled,
          }),
        );
        await ask(bridge().useProfile({ id: profile.id }));
      }
      setSecrets(NO_SECRETS);
      setMessage({ text: 'Saved.', ok: true });
      // A saved profile's settings (secrets set or not) are not queue changes: read them again here.
      void queryClient.invalidateQueries({ queryKey: keys.settings });
    } catch (error) {
      setMessage({ text: messageOf(error), ok: false });
    }
  };
  const keepReceiptsBeside = async (on: boolean) => {
    try {
      await ask(bridge().setReceiptsBesideFiles({ on }));
      void queryClient.invalidateQueries({ queryKey: keys.settings });
    } catch (error) {
      setMessage({ text: messageOf(error), ok: false });
    }
  };
  const test = async () => {
    try {
      const result = await ask(
        bridge().testConnection({ id: kind === 'embedded' ? EMBEDDED_PROFILE_ID : profile.id }),
      );
      setMessage({ text: result.message, ok: result.ok });
    } catch (error) {
      setMessage({ text: messageOf(error), ok: false });
    }
  };

  return (
    <Dialog title="Settings" onClose={onClose} wide>
      <form onSubmit={(event) => (event.preventDefault(), void save())}>
        {settings.isPending && <p className="hint">Loading the current settings…</p>}
        {settings.error && (
          <p className="error" role="alert">
            The current settings could not be read: {messageOf(settings.error)}
          </p>
        )}
        <label htmlFor={`${id}-kind`}>Environment</label>
        <select
          id={`${id}-kind`}
          value={kind}
          onChange={(event) => setKind(event.target.value as Environment)}
        >
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
            <label htmlFor={`${id}-logKey`}>Log key (optional: PEM public key or SHA-256 fingerprint)</label>
            <textarea
              id={`${id}-logKey`}
              rows={2}
              spellCheck={false}
              value={profile.logKey ?? ''}
              onChange={(event) => setProfile({ ...profile, logKey: event.target.value || undefined })}
            />
          </div>
        )}
        <label className="check">
          <input
            type="checkbox"
            checked={loaded?.receiptsBesideFiles ?? false}
            onChange={(event) => void keepReceiptsBeside(event.target.checked)}
          />{' '}
          Save a receipt beside each certified file once it is anchored (<code>FILE.receipt.json</code>)
        </label>
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
    </Dialog>
  );
}
