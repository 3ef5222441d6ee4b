import keytar from 'keytar';
import { DeskError } from '../errors';

import type { SecretName } from '../../protocol/profiles';
import { said } from '../../protocol/said';

export type { SecretName };

/** A tiny keychain interface, injected into whoever needs a secret. */
export interface SecretStore {
  get(profileId: string, name: SecretName): Promise<string | null>;
  set(profileId: string, name: SecretName, value: string): Promise<void>;
  delete(profileId: string, name: SecretName): Promise<boolean>;
}

/**
 * The OS keychain through keytar: Keychain on macOS, Credential Vault on Windows, the Secret
 * Service (gnome-keyring, KWallet) on Linux. There is no plaintext fallback: without a
 * keychain, saving a secret fails with a clear error.
 */
export class KeychainSecretStore implements SecretStore {
  constructor(private readonly service = 'Evidence Desk') {}

  async get(profileId: string, name: SecretName): Promise<string | null> {
    return this.guard(() => keytar.getPassword(this.service, account(profileId, name)));
  }

  async set(profileId: string, name: SecretName, value: string): Promise<void> {
    await this.guard(() => keytar.setPassword(this.service, account(profileId, name), value));
  }

  async delete(profileId: string, name: SecretName): Promise<boolean> {
    return this.guard(() => keytar.deletePassword(this.service, account(profileId, name)));
  }

  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      // keytar's messages name the backend, never the secret.
      throw new DeskError(
        'keychain_unavailable',
        said('profile.keychainUnavailable', { reason: (error as Error).message }),
      );
    }
  }
}

function account(profileId: string, name: SecretName): string {
  return `${profileId}/${name}`;
}
