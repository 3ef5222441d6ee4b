import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import type { SecretName, TsaSettings } from '../../../protocol/profiles';
import {
  WELL_KNOWN_TSAS,
  isLogKeyFingerprint,
  pemCertificates,
  serviceProfileSchema,
} from '../../../protocol/profiles';
import type { EvidenceCore } from '../../core';
import type { Values } from '../arguments';
import { EXIT, UsageError } from '../arguments';
import { count, environmentWords, out, outJson } from '../output';
import { promptSecrets } from '../prompt';
import { inEnglish } from '../../../protocol/locales';
import { say, words } from '../language';

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
    out(words('profile.active', { id: active, ...environmentWords(core) }));
    if (!settings) {
      out(words('profile.embedded'));
      return EXIT.ok;
    }
    const secret = (set: boolean | undefined) => words(set ? 'profile.secretSet' : 'profile.secretNotSet');
    out(words('profile.service', { value: settings.baseUrl }));
    out(words('profile.tokenAddress', { value: settings.tokenUrl }));
    out(words('profile.clientId', { value: settings.clientId }));
    out(words('profile.clientSecret', { value: secret(secretsSet?.client_secret) }));
    if (settings.apiKey)
      out(words('profile.apiKey', { value: settings.apiKey, secret: secret(secretsSet?.api_secret) }));
    out(
      settings.signRequests
        ? words('profile.signsYes', { secret: secret(secretsSet?.hmac_key) })
        : words('profile.signsNo'),
    );
    if (settings.logKey)
      out(
        words('profile.logKey', {
          value: settings.logKey.startsWith('-----') ? words('profile.pemKey') : settings.logKey,
        }),
      );
    if (settings.caFile) out(words('profile.caFile', { value: settings.caFile }));
    const { tsa } = settings;
    out(
      tsa
        ? words('profile.timestamps', {
            url: tsa.url,
            roots: count(pemCertificates(tsa.trustedCertificates).length, 'rootCertificates'),
            policy: `${tsa.policyOid ? words('profile.policy', { oid: tsa.policyOid }) : ''}${tsa.minIntervalSeconds ? words('profile.interval', { seconds: tsa.minIntervalSeconds }) : ''}`,
          })
        : words('profile.noTimestamps'),
    );
    return EXIT.ok;
  }
  if (action === 'use') {
    if (!id) throw new UsageError(words('usageErrors.profileUse'));
    await core.profiles.use(id);
    out(words('profile.nowUsing', { id, label: environmentWords(core).label }));
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
          ? words('profile.connected', { seconds: result.value.expiresInSeconds })
          : words('profile.notConnected', { reason: say(result.said) }),
      );
    return result.ok ? EXIT.ok : EXIT.environment;
  }
  if (action === 'set') return setProfile(core, values);
  if (action === 'trust-key') return trustNewKey(core, id);
  throw new UsageError(words('usageErrors.profileActions'));
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
  out(words('profile.saved', { id: parsed.data.id }));
  if (values.use) await core.profiles.use(parsed.data.id);
  const active = core.activeProfileId;
  out(
    active === parsed.data.id
      ? words('profile.activeIs', { id: active })
      : words('profile.activeIsNot', { id: active, saved: parsed.data.id }),
  );
  return EXIT.ok;
}

const TSA_FLAGS: Record<string, string> = {
  url: '--tsa-url',
  policyOid: '--tsa-policy',
  trustedCertificates: '--tsa-ca',
  minIntervalSeconds: '--tsa-interval',
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
    if (values['tsa-ca'] || values['tsa-policy'] || values['tsa-interval'])
      throw new UsageError(words('usageErrors.tsaWithoutUrl'));
    return undefined;
  }
  if (!values['tsa-ca']) throw new UsageError(words('usageErrors.tsaNeedsRoots'));
  let trustedCertificates: string;
  try {
    trustedCertificates = readFileSync(values['tsa-ca'], 'utf8');
  } catch {
    throw new UsageError(words('usageErrors.unreadableFile', { flag: '--tsa-ca', path: values['tsa-ca'] }));
  }
  // A public authority's published pace unless told otherwise; a value that is no number is said by the schema.
  const interval =
    values['tsa-interval'] === undefined
      ? WELL_KNOWN_TSAS.find((known) => known.url === url.trim())?.minIntervalSeconds
      : Number(values['tsa-interval']);
  return {
    url,
    trustedCertificates,
    ...(values['tsa-policy'] ? { policyOid: values['tsa-policy'] } : {}),
    ...(interval === undefined || interval === 0 ? {} : { minIntervalSeconds: interval }),
  };
}

/** --log-key for a profile: a fingerprint as given, or the text of a PEM file. */
function logKeyArgument(value: string | undefined): string | undefined {
  if (value === undefined || isLogKeyFingerprint(value)) return value;
  try {
    return readFileSync(value, 'utf8').trim();
  } catch {
    throw new UsageError(words('usageErrors.logKey', { value }));
  }
}

/**
 * Accepts a changed log key. The user types the new fingerprint (as compared with the one the
 * service publishes), so a key is never trusted by reflex.
 */
async function trustNewKey(core: EvidenceCore, fingerprint: string | undefined): Promise<number> {
  const change = core.profiles.pendingLogKeyChange();
  if (!change) {
    out(words('profile.keyUnchanged'));
    return EXIT.ok;
  }
  const typed =
    fingerprint
      ?.trim()
      .toLowerCase()
      .replace(/^sha256:/, '') ?? '';
  if (typed.length < 16 || !change.fingerprint.startsWith(typed))
    throw new UsageError(
      words('profile.keyChanged', { before: change.previousFingerprint, after: change.fingerprint }),
    );
  const rechecked = await core.profiles.acceptLogKeyChange();
  out(
    words('profile.nowTrusting', {
      fingerprint: change.fingerprint,
      certifications: count(rechecked, 'certifications'),
    }),
  );
  return EXIT.ok;
}

/** A CA file must exist and hold a PEM certificate now, not fail on the first request later. */
function caFileArgument(path: string): string {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch {
    throw new UsageError(words('usageErrors.unreadableFile', { flag: '--ca-file', path }));
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(words('usageErrors.noCertificate', { path }));
  return absolute;
}
