import { z } from 'zod';

/**
 * Where certifications go. The embedded sandbox needs no settings; every other profile names
 * its addresses and client here, and keeps its secrets in the keychain under its id.
 */
export const PROFILE_KINDS = ['embedded', 'service-sandbox', 'production', 'custom'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

const httpUrl = z
  .string()
  .trim()
  .url('must be a full address, like https://api.example.com')
  .refine((value) => /^https?:\/\//i.test(value), 'must start with http:// or https://');

export const serviceProfileSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lower-case letters, digits and dashes'),
  kind: z.enum(PROFILE_KINDS),
  baseUrl: httpUrl,
  tokenUrl: httpUrl,
  clientId: z.string().trim().min(1, 'is required').max(256),
  apiKey: z.string().trim().max(256).optional(),
  signRequests: z.boolean(),
});

export type ServiceProfile = z.infer<typeof serviceProfileSchema>;

export const EMBEDDED_PROFILE_ID = 'embedded';
