import { z } from 'zod';
import { en } from './locales/en';

/**
 * Where certifications go. The embedded sandbox needs no settings; every other profile names
 * its addresses and client here, and keeps its secrets in the keychain under its id.
 */
export const PROFILE_KINDS = ['embedded', 'service-sandbox', 'production', 'custom'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];
export type SavedProfileKind = Exclude<ProfileKind, 'embedded'>;

export const EMBEDDED_PROFILE_ID = 'embedded';

/** The secrets a service profile has; none of them is ever written to the database or a log. */
export const SECRET_NAMES = ['client_secret', 'api_secret', 'hmac_key'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];
export type SecretsSet = Record<SecretName, boolean>;

const httpUrl = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .url('must be a full address, like https://api.example.com')
  .refine((value) => /^https?:\/\//i.test(value), 'must start with http:// or https://')
  // A password in an address ends up in logs, histories and screenshots: secrets go in their own fields.
  .refine((value) => {
    // An address that does not parse is reported by the checks above.
    const url = URL.canParse(value) ? new URL(value) : null;
    return url === null || (url.username === '' && url.password === '');
  }, 'must not contain a user name or password; enter the client id and secret in their own fields');

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Plain http is for a service on this computer only; production evidence always travels over TLS. */
export const isAllowedPlainHttp = (value: string): boolean => {
  if (!URL.canParse(value)) return true;
  const url = new URL(value);
  return url.protocol === 'https:' || LOOPBACK.test(url.hostname);
};

/** A log key given by its SHA-256 fingerprint: 64 hexadecimal characters, "sha256:" allowed before. */
export const isLogKeyFingerprint = (value: string): boolean =>
  /^(sha256:)?[0-9a-fA-F]{64}$/.test(value.trim());

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates in a PEM bundle, each as its own PEM block. */
export const pemCertificates = (text: string): string[] => text.match(PEM_CERTIFICATE) ?? [];

/**
 * A timestamping authority (RFC 3161) of the user's choosing: where to ask, under which policy, and
 * the root certificate(s) its tokens must chain to. Tokens sign themselves, so plain http is allowed.
 */
export const tsaSettingsSchema = z.object({
  url: httpUrl,
  policyOid: z
    .string()
    .trim()
    .regex(/^[0-2](\.(0|[1-9]\d*))+$/, 'must be an object identifier, like 1.2.3.4')
    .optional(),
  trustedCertificates: z
    .string()
    .trim()
    .max(256 * 1024)
    .refine(
      (value) => pemCertificates(value).length > 0,
      'must hold the authority’s root certificate as PEM (-----BEGIN CERTIFICATE-----)',
    ),
  /** The least time between two requests the authority asks for: it blocks or bills a desk that asks faster. */
  minIntervalSeconds: z
    .number()
    .int('must be a whole number of seconds')
    .min(0, 'must be 0 or more')
    .max(86_400, 'must be at most 86400 (a day)')
    .optional(),
});
export type TsaSettings = z.infer<typeof tsaSettingsSchema>;

/**
 * Public timestamping authorities offered as suggestions (addresses only: nothing is fetched; the
 * user adds the root certificate the authority publishes), with the least interval between requests
 * each publishes: Sectigo asks scripts for 15 s; FreeTSA blocks for a day after 20 requests in 20
 * minutes. D-Trust's service is qualified under eIDAS (and billed per token).
 */
export const WELL_KNOWN_TSAS: readonly { name: string; url: string; minIntervalSeconds: number }[] = [
  { name: 'DigiCert', url: 'http://timestamp.digicert.com', minIntervalSeconds: 0 },
  { name: 'Sectigo', url: 'http://timestamp.sectigo.com', minIntervalSeconds: 15 },
  { name: 'GlobalSign', url: 'http://timestamp.globalsign.com/tsa/r6advanced1', minIntervalSeconds: 0 },
  { name: 'FreeTSA', url: 'https://freetsa.org/tsr', minIntervalSeconds: 60 },
  { name: 'D-Trust (qualified, eIDAS)', url: 'http://zeitstempel.dtrust.net/tsp', minIntervalSeconds: 0 },
];

export const profileIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lower-case letters, digits and dashes');

export const serviceProfileSchema = z
  .object({
    id: profileIdSchema,
    kind: z.enum(PROFILE_KINDS).exclude(['embedded']),
    baseUrl: httpUrl,
    tokenUrl: httpUrl,
    clientId: z.string().trim().min(1, 'is required').max(256),
    apiKey: z.string().trim().max(256).optional(),
    signRequests: z.boolean(),
    /**
     * The log key this profile trusts: a PEM public key, or the SHA-256 fingerprint the service's
     * key must have. Without it the key is fetched once and pinned.
     */
    logKey: z
      .string()
      .trim()
      .max(4096)
      .refine(
        (value) =>
          isLogKeyFingerprint(value) ||
          /^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----$/.test(value),
        'must be a PEM public key or a SHA-256 fingerprint (64 hexadecimal characters)',
      )
      .optional(),
    /**
     * A CA certificate file (PEM) the command line trusts for this service besides the OS store:
     * an internal CA, or the one a TLS-inspecting proxy signs with. The app uses the OS store.
     */
    caFile: z.string().trim().min(1).max(4096).optional(),
    /** The timestamping authority that confirms each batch's time independently; none when absent. */
    tsa: tsaSettingsSchema.optional(),
  })
  .superRefine((profile, context) => {
    if (profile.kind !== 'production') return;
    for (const field of ['baseUrl', 'tokenUrl'] as const) {
      if (!isAllowedPlainHttp(profile[field]))
        context.addIssue({
          code: 'custom',
          path: [field],
          message: 'must start with https:// for production (plain http only reaches this computer)',
        });
    }
  });

export type ServiceProfile = z.infer<typeof serviceProfileSchema>;

/** Secrets typed once and sent straight to the keychain; never sent back. */
export const profileSecretsSchema = z.object({
  client_secret: z.string().min(1).max(4096).optional(),
  api_secret: z.string().min(1).max(4096).optional(),
  hmac_key: z.string().min(1).max(4096).optional(),
});
export type ProfileSecrets = z.infer<typeof profileSecretsSchema>;

/** Sandboxes, ours or the service's, make certifications with no legal weight. */
export const isDemoKind = (kind: ProfileKind): boolean => kind === 'embedded' || kind === 'service-sandbox';

/** How an environment is named to people: on screens, certificates and receipts. */
export const ENVIRONMENT_LABELS: Record<ProfileKind, string> = en.cli.environment;
