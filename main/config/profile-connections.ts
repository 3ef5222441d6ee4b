import { join } from 'node:path';
import type { EmbeddedService, EmbeddedServiceStarter } from './embedded-service';
import type { ProfileSecrets, SecretsSet, ServiceProfile } from '../../protocol/profiles';
import { EMBEDDED_PROFILE_ID, SECRET_NAMES, isDemoKind, serviceProfileSchema } from '../../protocol/profiles';
import { certificateFingerprint, certificatesFromPem } from '../../verifier/timestamp/certificate-bytes';
import type { Authority } from '../service/ask-authority';
import type { ProfileSummary } from '../../protocol/views';
import { DeskError, isDeskError } from '../errors';
import type { SecretName, SecretStore } from '../secrets/secret-store';
import type { ServiceAnswer, ServiceConnection } from '../service/service-client';
import { ServiceClient } from '../service/service-client';
import type { Fetch } from '../service/network';
import type { SettingsStore } from '../store';
import { said } from '../../protocol/said';
import { SETTING } from '../store/setting-keys';

const profileKey = SETTING.profile;

/**
 * Where certifications go and how to reach it: saved profiles (settings in the queue database,
 * secrets in the keychain), which one is active, and the connection each one makes — starting
 * the embedded sandbox on loopback when that is the one.
 */
export class ProfileConnections {
  private sandbox: EmbeddedService | undefined;

  constructor(
    private readonly settings: SettingsStore,
    private readonly secrets: SecretStore,
    /** Where the embedded service keeps its data, and how to start it (none: the embedded profile cannot be used). */
    private readonly embedded: { dataDir: string; start?: EmbeddedServiceStarter },
    /** How a profile's requests leave the machine (the CLI's proxy-aware fetch); the platform's by default. */
    private readonly networkFor: (profile: ServiceProfile) => Fetch | undefined = () => undefined,
  ) {}

  get activeId(): string {
    return this.settings.activeProfile();
  }

  /** A saved profile, checked again on every read: settings saved by an older, laxer version are refused here. */
  read(id: string): ServiceProfile | undefined {
    const json = this.settings.get(profileKey(id));
    if (!json) return undefined;
    const parsed = serviceProfileSchema.safeParse(JSON.parse(json));
    if (parsed.success) return parsed.data;
    const reasons = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
    throw new DeskError('invalid_profile', said('profile.noLongerAccepted', { id, reasons }));
  }

  /**
   * A saved profile to show and edit; settings that no longer pass the rules read as absent (to be
   * entered again), and the connection status says why.
   */
  readUsable(id: string): ServiceProfile | undefined {
    try {
      return this.read(id);
    } catch (error) {
      if (isDeskError(error) && error.code === 'invalid_profile') return undefined;
      throw error;
    }
  }

  summary(id = this.activeId): ProfileSummary {
    let kind: ProfileSummary['kind'] = 'custom';
    try {
      kind = id === EMBEDDED_PROFILE_ID ? 'embedded' : (this.read(id)?.kind ?? 'custom');
    } catch {
      // Unusable settings are reported by the connection; the summary still names the profile.
    }
    return { id, kind, demo: isDemoKind(kind) };
  }

  /** Saves a service profile: settings in the database, secrets in the keychain. */
  async save(profile: ServiceProfile, secrets: ProfileSecrets): Promise<void> {
    const parsed = serviceProfileSchema.parse(profile);
    if (parsed.id === EMBEDDED_PROFILE_ID)
      throw new DeskError('invalid_profile', said('profile.embeddedNeedsNoSettings'));
    for (const name of SECRET_NAMES) {
      const value = secrets[name];
      if (value) await this.secrets.set(parsed.id, name, value);
    }
    this.settings.set(profileKey(parsed.id), JSON.stringify(parsed));
  }

  /** Which secrets a profile has in the keychain: the shells learn that, never the values. */
  async secretsSet(id: string): Promise<SecretsSet> {
    const entries = await Promise.all(
      SECRET_NAMES.map(async (name) => [name, (await this.secrets.get(id, name)) !== null] as const),
    );
    return Object.fromEntries(entries) as SecretsSet;
  }

  /** Makes `id` the active profile; rows stay with the profile they were made for. */
  activate(id: string): void {
    if (id !== EMBEDDED_PROFILE_ID && !this.read(id))
      throw new DeskError('unknown_profile', said('profile.unknown', { id }));
    this.settings.setActiveProfile(id);
  }

  /** Fetches a token with a profile's settings and says what happened. */
  async testConnection(id: string): Promise<ServiceAnswer<{ expiresInSeconds: number }>> {
    return new ServiceClient(await this.connectionFor(id)).testConnection();
  }

  /**
   * Fetches a token with settings as typed, before they are saved: a secret typed now is used,
   * one left blank is taken from the keychain when this profile already has it.
   */
  async testUnsaved(
    profile: ServiceProfile,
    typed: ProfileSecrets,
  ): Promise<ServiceAnswer<{ expiresInSeconds: number }>> {
    const parsed = serviceProfileSchema.parse(profile);
    const connection = await this.connectionOf(
      parsed,
      async (name) => typed[name] || this.secrets.get(parsed.id, name),
    );
    return new ServiceClient(connection).testConnection();
  }

  async connectionFor(id: string): Promise<ServiceConnection> {
    if (id === EMBEDDED_PROFILE_ID) return this.embeddedConnection();
    const profile = this.read(id);
    if (!profile) throw new DeskError('unknown_profile', said('profile.unknown', { id }));
    return this.connectionOf(profile, (name) => this.secrets.get(id, name));
  }

  private async connectionOf(
    profile: ServiceProfile,
    secret: (name: SecretName) => Promise<string | null | undefined>,
  ): Promise<ServiceConnection> {
    const id = profile.id;
    const clientSecret = await secret('client_secret');
    if (!clientSecret) throw new DeskError('secret_missing', said('profile.secretMissing', { id }));
    const apiSecret = await secret('api_secret');
    const hmacKey = profile.signRequests ? await secret('hmac_key') : null;
    if (profile.signRequests && !hmacKey)
      throw new DeskError('secret_missing', said('profile.signingKeyMissing', { id }));
    return {
      baseUrl: profile.baseUrl,
      tokenUrl: profile.tokenUrl,
      clientId: profile.clientId,
      clientSecret,
      fetch: this.networkFor(profile),
      signing: {
        hmacKey: hmacKey ?? undefined,
        apiKey: profile.apiKey || undefined,
        apiSecret: apiSecret ?? undefined,
      },
    };
  }

  /**
   * The timestamping authority a profile names, with the roots to trust it by: the embedded
   * sandbox's DEMO authority, or the one saved with a service profile; null when it names none.
   */
  async authorityFor(id: string): Promise<Authority | null> {
    if (id === EMBEDDED_PROFILE_ID) {
      if (!this.embedded.start) return null;
      await this.embeddedConnection();
      return this.sandbox ? authorityOf(this.sandbox.tsa.url, this.sandbox.tsa.rootPem) : null;
    }
    const tsa = this.read(id)?.tsa;
    return tsa ? authorityOf(tsa.url, tsa.trustedCertificates, tsa.policyOid, tsa.minIntervalSeconds) : null;
  }

  /** How a profile's timestamp requests leave the machine: the same way as its service requests. */
  fetchFor(id: string): Fetch {
    const profile = id === EMBEDDED_PROFILE_ID ? undefined : this.read(id);
    return (profile && this.networkFor(profile)) ?? fetch;
  }

  /** Stops the embedded sandbox, if it runs. */
  async close(): Promise<void> {
    await this.sandbox?.stop();
    this.sandbox = undefined;
  }

  private async embeddedConnection(): Promise<ServiceConnection> {
    if (!this.embedded.start) throw new DeskError('unknown_profile', said('profile.demoNotHere'));
    this.sandbox ??= await this.embedded.start(join(this.embedded.dataDir, 'embedded-sandbox.sqlite'));
    const demo = this.sandbox.demoClient;
    return {
      baseUrl: this.sandbox.baseUrl,
      tokenUrl: this.sandbox.tokenUrl,
      clientId: demo.clientId,
      clientSecret: demo.clientSecret,
      signing: {},
    };
  }
}

function authorityOf(url: string, pem: string, policyOid?: string, minIntervalSeconds = 0): Authority {
  const certificates = certificatesFromPem(pem);
  return {
    url,
    policyOid,
    certificates,
    trustedRoots: certificates.map(certificateFingerprint),
    minIntervalMs: minIntervalSeconds * 1000,
  };
}
