import { z } from 'zod';

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
  .refine((value) => /^https?:\/\//i.test(value), 'must start with http:// or https://');

export const profileIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lower-case letters, digits and dashes');

export const serviceProfileSchema = z.object({
  id: profileIdSchema,
  kind: z.enum(PROFILE_KINDS).exclude(['embedded']),
  baseUrl: httpUrl,
  tokenUrl: httpUrl,
  clientId: z.string().trim().min(1, 'is required').max(256),
  apiKey: z.string().trim().max(256).optional(),
  signRequests: z.boolean(),
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
