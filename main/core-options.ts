import type { ServiceProfile } from '../protocol/profiles';
import type { Sender } from '../protocol/views';
import type { EmbeddedServiceStarter } from './config/embedded-service';
import type { ItPolicy } from './desktop-policy/it-policy';
import type { Logger } from './logging/logger';
import type { SecretStore } from './secrets/secret-store';
import type { Fetch } from './service/network';
import type { Pacing } from './service/retry-policy';
import type { LeaseTiming } from './sync/lease-keeper';
import type { RenewalPolicy } from './timestamps/record-renewal';
import type { TimestampPacing } from './timestamps/timestamp-engine';
import type { WatchTiming } from './watch/watch-timing';
import type { SubscribeToChanges } from './watch/change-events';

/** What a shell (or a test) chooses of the core it opens. */
export interface CoreOptions {
  /** Where the queue database (and the embedded sandbox's) live. */
  dataDir: string;
  secrets: SecretStore;
  /**
   * How to start the embedded service (the shells pass the sandbox; tests shorten its intervals).
   * Without it the embedded profile cannot be used, and says so.
   */
  startEmbedded?: EmbeddedServiceStarter;
  concurrency?: number;
  hashWorkers?: number;
  /** How patient syncing is (main/service/retry-policy.ts); tests shorten it. */
  pacing?: Pacing;
  /** The jitter source for backoffs (Math.random); tests pin it to make a delay certain. */
  random?: () => number;
  /** How long the right to send lasts and how often it is renewed; tests shorten it. */
  leaseTiming?: LeaseTiming;
  /** Where structured logs go; by default `logs/evidence-desk.log` in the data folder. */
  log?: Logger;
  /** Start syncing at once (default). The CLI's read-only commands do not. */
  sync?: boolean;
  /** The app (default) or the command line: whoever waits for the other says who is sending. */
  sender?: Sender;
  /**
   * How a service profile's requests leave the machine: Electron's net.fetch in the app, a
   * proxy-aware fetch with the profile's CA in the CLI. Node's own fetch when not given.
   */
  networkFor?: (profile: ServiceProfile) => Fetch | undefined;
  /** How patient independent timestamping is; tests shorten it. */
  timestampPacing?: TimestampPacing;
  /** How early evidence records are renewed and how often the desk looks; tests shorten both. */
  renewal?: Partial<RenewalPolicy>;
  /** The time as renewal reads it (is a record due yet?); tests move it. */
  clock?: () => number;
  /** Watch the watched folders while open (the app, `evidence-desk watch`); other commands do not. */
  watch?: boolean;
  /** How often watched folders and their waiting files are looked at; tests shorten it. */
  watchTiming?: Partial<WatchTiming>;
  /** The system's change events for watched folders (@parcel/watcher's); tests lose one on purpose. */
  watchEvents?: SubscribeToChanges;
  /** IT's policy on log keys; read from the environment and the OS's policy store unless given. */
  itPolicy?: ItPolicy;
}
