import type { SavedProfileKind, SecretsSet, ServiceProfile } from '../../../protocol/profiles';
import { isAllowedPlainHttp, profileIdSchema, serviceProfileSchema } from '../../../protocol/profiles';
import type { TsaField } from './TsaFields';

/**
 * What is wrong with the settings as typed, field by field, as sentence keys the form shows under
 * each field: the same rules main applies again when they are saved.
 */
export const NO_SECRETS = { client_secret: '', api_secret: '', hmac_key: '' };
export type Secrets = typeof NO_SECRETS;
export type Field =
  'id' | 'baseUrl' | 'tokenUrl' | 'clientId' | 'client_secret' | 'hmac_key' | 'logKey' | TsaField;
type Problem =
  | 'id'
  | 'url'
  | 'urlHttps'
  | 'urlCredentials'
  | 'clientId'
  | 'clientSecret'
  | 'hmacKey'
  | 'logKey'
  | TsaField
  | 'other';
const TSA_FIELDS: Record<string, TsaField> = {
  url: 'tsaUrl',
  policyOid: 'tsaPolicy',
  trustedCertificates: 'tsaCa',
  minIntervalSeconds: 'tsaInterval',
};

/** What is wrong with each field, as a sentence key: checked here as typed, and again in main. */
export function problemsOf(
  kind: SavedProfileKind,
  profile: ServiceProfile,
  secrets: Secrets,
  saved: SecretsSet | null,
): Partial<Record<Field, Problem>> {
  const problems: Partial<Record<Field, Problem>> = {};
  const parsed = serviceProfileSchema.safeParse({ ...profile, kind });
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = issue.path[0];
    if (field === 'baseUrl' || field === 'tokenUrl') {
      const value = profile[field].trim();
      const url = URL.canParse(value) ? new URL(value) : null;
      problems[field] =
        url && (url.username || url.password)
          ? 'urlCredentials'
          : url && kind === 'production' && !isAllowedPlainHttp(value)
            ? 'urlHttps'
            : 'url';
    } else if (field === 'id' || field === 'clientId' || field === 'logKey') problems[field] = field;
    else if (field === 'tsa') {
      const tsaField = TSA_FIELDS[String(issue.path[1])] ?? 'tsaUrl';
      problems[tsaField] = tsaField;
    } else if (typeof field === 'string') problems[field as Field] = 'other';
  }
  if (!profileIdSchema.safeParse(profile.id).success) problems.id = 'id';
  if (!secrets.client_secret && !saved?.client_secret) problems.client_secret = 'clientSecret';
  if (profile.signRequests && !secrets.hmac_key && !saved?.hmac_key) problems.hmac_key = 'hmacKey';
  return problems;
}
