import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import type { SecretName, TsaSettings } from '../../../protocol/profiles';
import { isLogKeyFingerprint, pemCertificates, serviceProfileSchema } from '../../../protocol/profiles';
import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import { count, environmentOf, out, outJson } from '../output';
import { promptSecrets } from '../prompt';
import { inEnglish } from '../../../protocol/locales';
import { say } from '../language';

export async function profile(core: EvidenceCore, args: string[], values: Values): Promise<number> {
  const [action, id] = args;
  if (action === 'show') {
    const active = core.activeProfileId;
    const settings = core.profiles.read(active);
    const secretsSet = settings ? await core.profiles.secretsSet(active) : null;
    if (values.json) {
      outJson({ active, settings: settings ?? null, secretsSet });
      return EXIT.ok;
    }
    const environment = environmentOf(core);
    out(
      `Active profile: ${active} — ${environment.label}${environment.demo ? ' (DEMO — no legal weight)' : ''}`,
    );
    if (!settings) {
      out(
        'It runs inside Evidence Desk: nothing to set up. Its DEMO timestamping authority confirms each batch’s time. Choose a service with: evidence-desk profile set …',
      );
      return EXIT.ok;
    }
    const said = (set: boolean | undefined) => (set ? 'set (in the system keychain)' : 'NOT SET');
    out(`  service:        ${settings.baseUrl}`);
    out(`  token address:  ${settings.tokenUrl}`);
    out(`  client id:      ${settings.clientId}`);
    out(`  client secret:  ${said(secretsSet?.client_secret)}`);
    if (settings.apiKey)
      out(`  API key:        ${settings.apiKey}; its secret ${said(secretsSet?.api_secret)}`);
    out(
      `  signs requests: ${settings.signRequests ? `yes; signing key ${said(secretsSet?.hmac_key)}` : 'no'}`,
    );
    if (settings.logKey)
      out(`  log key:        ${settings.logKey.startsWith('-----') ? 'a PEM key' : settings.logKey}`);
    if (settings.caFile) out(`  CA file:        ${settings.caFile}`);
    out(
      `  timestamps:     ${settings.tsa ? `${settings.tsa.url} (RFC 3161), trusted by ${count(pemCertificates(settings.tsa.trustedCertificates).length, 'root certificate')}${settings.tsa.policyOid ? `, policy ${settings.tsa.policyOid}` : ''}` : 'none: the time rests on the service alone (profile set … --tsa-url URL --tsa-ca ROOTS.pem)'}`,
    );
    return EXIT.ok;
  }
  if (action === 'use') {
    if (!id) throw new UsageError('profile use needs a profile id (or "embedded").');
    await core.profiles.use(id);
    out(`Now using the profile ${id} — ${environmentOf(core).label}.`);
    return EXIT.ok;
  }
  if (action === 'test') {
    const result = await core.profiles.test(id ?? core.activeProfileId);
    if (values.json)
      out(
        JSON.stringify(
          result.ok
            ? { ok: true, ...result.value }
            : { ok: false, code: result.code, message: inEnglish(result.said) },
        ),
      );
    else
      out(
        result.ok
          ? `Connected: a token was issued (valid ${result.value.expiresInSeconds} s).`
          : `Not connected: ${say(result.said)}`,
      );
    return result.ok ? EXIT.ok : EXIT.environment;
  }
  if (action === 'set') return setProfile(core, values);
  if (action === 'trust-key') return trustNewKey(core, id);
  throw new UsageError('profile takes show, use ID, test [ID], set or trust-key FINGERPRINT.');
}

async function setProfile(core: EvidenceCore, values: Values): Promise<number> {
  const parsed = serviceProfileSchema.safeParse({
    id: values.id,
    kind: values.kind ?? 'custom',
    baseUrl: values['base-url'],
    tokenUrl: values['token-url'],
    clientId: values['client-id'],
    apiKey: values['api-key'],
    signRequests: values.sign ?? false,
    logKey: logKeyArgument(values['log-key']?.[0]),
    // Kept as an absolute path: the CLI may be run again from another folder.
    caFile: values['ca-file'] && caFileArgument(values['ca-file']),
    tsa: tsaArgument(values),
  });
  if (!parsed.success)
    throw new UsageError(parsed.error.issues.map((i) => `${flagOf(i.path)} ${i.message}`).join('; '));
  const asked: SecretName[] = [
    'client_secret',
    ...(parsed.data.apiKey ? (['api_secret'] as const) : []),
    ...(parsed.data.signRequests ? (['hmac_key'] as const) : []),
  ];
  const answers = await promptSecrets(asked.map((name) => `${name.replace('_', ' ')}: `));
  const secrets = Object.fromEntries(asked.map((name, i) => [name, answers[i] as string]));
  await core.profiles.save(parsed.data, secrets);
  out(`Saved profile ${parsed.data.id}; its secrets are in the system keychain.`);
  if (values.use) await core.profiles.use(parsed.data.id);
  out(
    `The active profile is ${core.activeProfileId}${values.use || core.activeProfileId === parsed.data.id ? '' : ` (to use ${parsed.data.id}: evidence-desk profile use ${parsed.data.id}, or profile set … --use)`}.`,
  );
  return EXIT.ok;
}

const TSA_FLAGS: Record<string, string> = {
  url: '--tsa-url',
  policyOid: '--tsa-policy',
  trustedCertificates: '--tsa-ca',
};

/** The option a schema path came from: baseUrl → --base-url, tsa.url → --tsa-url. */
function flagOf(path: readonly PropertyKey[]): string {
  if (path[0] === 'tsa') return TSA_FLAGS[String(path[1])] ?? '--tsa-url';
  return `--${String(path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** --tsa-url with --tsa-ca (the roots, read from a PEM file) and perhaps --tsa-policy. */
function tsaArgument(values: Values): TsaSettings | undefined {
  const url = values['tsa-url'];
  if (url === undefined) {
    if (values['tsa-ca'] || values['tsa-policy'])
      throw new UsageError('--tsa-ca and --tsa-policy go with --tsa-url.');
    return undefined;
  }
  if (!values['tsa-ca'])
    throw new UsageError(
      '--tsa-url needs --tsa-ca: the root certificate(s) the authority publishes, as a PEM file, so its tokens can be trusted.',
    );
  let trustedCertificates: string;
  try {
    trustedCertificates = readFileSync(values['tsa-ca'], 'utf8');
  } catch {
    throw new UsageError(`--tsa-ca ${values['tsa-ca']}: that file cannot be read.`);
  }
  return { url, trustedCertificates, ...(values['tsa-policy'] ? { policyOid: values['tsa-policy'] } : {}) };
}

/** --log-key for a profile: a fingerprint as given, or the text of a PEM file. */
function logKeyArgument(value: string | undefined): string | undefined {
  if (value === undefined || isLogKeyFingerprint(value)) return value;
  try {
    return readFileSync(value, 'utf8').trim();
  } catch {
    throw new UsageError(
      `--log-key takes a key's SHA-256 fingerprint or a PEM public key file; ${value} is neither.`,
    );
  }
}

/**
 * Accepts a changed log key. The user types the new fingerprint (as compared with the one the
 * service publishes), so a key is never trusted by reflex.
 */
async function trustNewKey(core: EvidenceCore, fingerprint: string | undefined): Promise<number> {
  const change = core.profiles.pendingLogKeyChange();
  if (!change) {
    out('The log key has not changed: there is nothing to accept.');
    return EXIT.ok;
  }
  const typed =
    fingerprint
      ?.trim()
      .toLowerCase()
      .replace(/^sha256:/, '') ?? '';
  if (typed.length < 16 || !change.fingerprint.startsWith(typed))
    throw new UsageError(
      `The service's log key changed from ${change.previousFingerprint} to ${change.fingerprint}. Compare the new fingerprint with the one the service publishes; if they match, run: evidence-desk profile trust-key ${change.fingerprint}`,
    );
  const rechecked = await core.profiles.acceptLogKeyChange();
  out(`Now trusting the log key ${change.fingerprint}; checked ${count(rechecked, 'certification')} again.`);
  return EXIT.ok;
}

/** A CA file must exist and hold a PEM certificate now, not fail on the first request later. */
function caFileArgument(path: string): string {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch {
    throw new UsageError(`--ca-file ${path}: that file cannot be read.`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(
      `--ca-file ${path}: that file holds no PEM certificate (-----BEGIN CERTIFICATE-----).`,
    );
  return absolute;
}
