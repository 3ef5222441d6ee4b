import type { ProfileSecrets, SecretsSet, ServiceProfile } from '../../protocol/profiles';
import { EMBEDDED_PROFILE_ID } from '../../protocol/profiles';
import type { LogKeyChangeView } from '../../protocol/views';
import { checkEvidence } from '../evidence/evidence-checker';
import type { LogTrust } from '../evidence/log-trust';
import type { QueueView } from '../queue/queue-view';
import type { ServiceAnswer } from '../service/service-client';
import type { QueueCorrections } from '../store';
import type { SyncControl } from '../sync/sync-control';
import type { ProfileConnections } from '../config/profile-connections';
import type { ItPolicy } from '../desktop-policy/it-policy';
import { DeskError } from '../errors';
import { said } from '../../protocol/said';

export interface ProfileServiceDeps {
  connections: ProfileConnections;
  sync: SyncControl;
  logKeys: LogTrust;
  queue: QueueView;
  /** Where a fresh check of a row's evidence is recorded. */
  corrections: Pick<QueueCorrections, 'recordVerification'>;
  /** IT decides which log keys are trusted (main/desktop-policy/it-policy.ts). */
  itPolicy(): ItPolicy;
}

/**
 * Where certifications go, as the person manages it: saved profiles (secrets to the keychain),
 * which one is active, testing a connection, and accepting a service's new log key.
 */
export class ProfileService {
  constructor(private readonly deps: ProfileServiceDeps) {}

  save(profile: ServiceProfile, secrets: ProfileSecrets): Promise<void> {
    return this.deps.connections.save(profile, secrets);
  }

  /**
   * Saves a profile and makes it the active one, as one step: if switching to it fails, the
   * profile that was active stays active, and the error says why.
   */
  async saveAndUse(profile: ServiceProfile, secrets: ProfileSecrets): Promise<void> {
    const previous = this.deps.connections.activeId;
    await this.save(profile, secrets);
    try {
      await this.use(profile.id);
    } catch (error) {
      await this.use(previous).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A saved profile to show and edit; settings that no longer pass the rules read as absent (to be
   * entered again), and the connection status says why.
   */
  read(id: string): ServiceProfile | undefined {
    return this.deps.connections.readUsable(id);
  }

  secretsSet(id: string): Promise<SecretsSet> {
    return this.deps.connections.secretsSet(id);
  }

  /** Switches where certifications go. Rows stay with the profile they were made for. */
  async use(id: string): Promise<void> {
    const { sync, connections } = this.deps;
    await sync.disconnect();
    await connections.close();
    try {
      connections.activate(id);
    } finally {
      await sync.connect();
    }
  }

  test(id = this.deps.connections.activeId): Promise<ServiceAnswer<{ expiresInSeconds: number }>> {
    return this.deps.connections.testConnection(id);
  }

  /** Tests settings as typed in, before they are saved (blank secrets come from the keychain). */
  testUnsaved(
    profile: ServiceProfile,
    secrets: ProfileSecrets,
  ): Promise<ServiceAnswer<{ expiresInSeconds: number }>> {
    return this.deps.connections.testUnsaved(profile, secrets);
  }

  /** The active profile's service and the log key the user gave it, for the log trust. */
  trustedService(): { profileId: string; service: string; configuredKey?: string } {
    const profileId = this.deps.connections.activeId;
    if (profileId === EMBEDDED_PROFILE_ID) return { profileId, service: 'embedded' };
    const profile = this.read(profileId);
    return { profileId, service: profile?.baseUrl ?? 'unknown', configuredKey: profile?.logKey };
  }

  /** A change of the active service's log key that waits for the user to accept it, if any. */
  pendingLogKeyChange(): LogKeyChangeView | null {
    const change = this.deps.logKeys.keyChange(this.deps.connections.activeId);
    return change
      ? {
          previousFingerprint: change.previousFingerprint,
          fingerprint: change.fingerprint,
          seenAt: change.seenAt,
          lockedByPolicy: this.deps.itPolicy().locked,
        }
      : null;
  }

  /**
   * The user compared the new key's fingerprint with the service's and accepts it: evidence that
   * could not be checked is checked again with it. Returns how many were checked again.
   */
  async acceptLogKeyChange(): Promise<number> {
    const { logKeys, queue, corrections } = this.deps;
    if (this.deps.itPolicy().locked) throw new DeskError('forbidden', said('profile.logKeyLocked'));
    if (!logKeys.acceptKeyChange(this.deps.connections.activeId)) return 0;
    const unchecked = queue
      .list({ states: ['anchored'], limit: 1_000_000 })
      .filter((row) => row.verification !== 'verified');
    for (const row of unchecked) {
      const check = await checkEvidence(row, row.evidence, logKeys);
      corrections.recordVerification(row.id, {
        verification: check.verification,
        verificationMessage: check.message,
      });
    }
    return unchecked.length;
  }
}
