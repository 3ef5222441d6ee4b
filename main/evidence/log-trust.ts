import { logKeyFingerprint } from '../../verifier/bytes';
import { isCanonicalSpki, spkiOfPem } from './log-keys';
import { isLogKeyFingerprint } from '../../protocol/profiles';
import type { Logger } from '../logging/logger';
import type { ServiceAnswer } from '../service/service-client';
import type { SettingsStore } from '../store';
import type { Said } from '../../protocol/said';
import { said } from '../../protocol/said';
import type { ConsistencyReader, TreeHead } from './tree-heads';
import { TreeHeads } from './tree-heads';

export type { TreeHead };
import { SETTING } from '../store/setting-keys';

/** Where a profile's certifications are checked against: its service, and the log key it was given, if any. */
export interface TrustedService {
  profileId: string;
  /** The service the key belongs to: its base address ("embedded" for the sandbox built in, whose port changes). */
  service: string;
  /** A key the user gave the profile: a PEM public key, or a SHA-256 fingerprint the service's key must have. */
  configuredKey?: string;
}

/** Where the service's log is read: its published key and its consistency proofs (the service client). */
export interface LogReader extends ConsistencyReader {
  fetchLogKey(): Promise<ServiceAnswer<string>>;
}

export interface LogTrustDeps {
  settings: SettingsStore;
  active(): TrustedService;
  log: Logger;
  now?(): number;
  /** Log keys IT trusts by policy (fingerprints): a change to one of them needs no one's click. */
  trustedByPolicy?(): readonly string[];
}

/** The key to check evidence with, or why there is none. */
export type KeyAnswer = { key: string } | { key?: undefined; reason: Said };

export interface KeyChange {
  profileId: string;
  service: string;
  previousFingerprint: string;
  fingerprint: string;
  publicKey: string;
  seenAt: number;
}

const BACKOFF_FIRST_MS = 30_000;
const BACKOFF_MAX_MS = 60 * 60_000;
const { logKey: keyOf, logKeyService: serviceOf, logKeyChange: changeOf, knownLogKey: knownKeyOf } = SETTING;

/**
 * Which log key a profile trusts, and whether the log stays append-only. The key is given by the
 * user or pinned the first time it is fetched (without credentials, backing off while the service
 * does not publish it); a different key is never trusted silently: it waits for the user to accept
 * it. Every newer signed tree head is checked against the newest seen before it.
 */
export class LogTrust {
  private nextFetchAt = 0;
  private failedFetches = 0;
  private keyFetch: Promise<KeyAnswer> | undefined;
  // The active service's log, while connected; none while offline-only or needing setup.
  private reader: LogReader | null = null;

  private readonly treeHeads: TreeHeads;

  constructor(private readonly deps: LogTrustDeps) {
    this.treeHeads = new TreeHeads(deps.settings, deps.log, () => this.reader);
  }

  /** Given by whoever connects to the service (sync control), each time it connects or disconnects. */
  readFrom(reader: LogReader | null): void {
    this.reader = reader;
  }

  /** The log key pinned for a profile (base64 SPKI DER), if one has been. */
  static stored(settings: SettingsStore, profileId: string): string | null {
    return settings.get(keyOf(profileId)) ?? null;
  }

  /** The fingerprints of every log key a profile on this computer has trusted: what a receipt is checked against. */
  static trustedFingerprints(settings: SettingsStore): string[] {
    return settings.withPrefix('log_key_known:').map(([key]) => key.slice('log_key_known:'.length));
  }

  /**
   * The key that evidence was signed with, for its receipt: the one its key id names if this
   * computer ever trusted it (a profile re-pointed since keeps the keys of its older evidence),
   * else the profile's.
   */
  static keyForEvidence(settings: SettingsStore, profileId: string, evidence: unknown): string | null {
    const named = (evidence as { log_key_id?: unknown } | null)?.log_key_id;
    const known = typeof named === 'string' ? settings.get(knownKeyOf(named)) : undefined;
    return known ?? LogTrust.stored(settings, profileId);
  }

  async pinnedLogKey(): Promise<KeyAnswer> {
    const target = this.deps.active();
    const { settings } = this.deps;
    if (target.configuredKey && !isLogKeyFingerprint(target.configuredKey)) {
      const key = spkiOfPem(target.configuredKey);
      if (!key) return { reason: said('evidence.logKeyUnreadableSetting') };
      this.pin(target, key);
      return { key };
    }
    const pinned = settings.get(keyOf(target.profileId));
    const pinnedFor = settings.get(serviceOf(target.profileId));
    const expected = target.configuredKey?.toLowerCase();
    if (
      pinned &&
      (pinnedFor === target.service || pinnedFor === undefined) &&
      (!expected || logKeyFingerprint(pinned) === expected)
    )
      return { key: pinned };
    const pending = this.keyChange(target.profileId);
    if (pending) return { reason: keyChangeReason(pending) };
    return this.fetchAndCompare(target, pinned ?? null, expected);
  }

  /** Fetches the service's key and pins it, unless it differs from the pinned one: that change waits for the user. */
  private async fetchAndCompare(
    target: TrustedService,
    pinned: string | null,
    expected?: string,
  ): Promise<KeyAnswer> {
    const fetched = await this.fetchKeyBackingOff();
    if ('reason' in fetched) return fetched;
    const fingerprint = logKeyFingerprint(fetched.key);
    if (expected && fingerprint !== expected)
      return {
        reason: said('evidence.logKeyNotExpected', { fingerprint, expected }),
      };
    if (!pinned || logKeyFingerprint(pinned) === fingerprint || expected) {
      this.pin(target, fetched.key);
      return { key: fetched.key };
    }
    if (this.deps.trustedByPolicy?.().includes(fingerprint)) {
      this.pin(target, fetched.key);
      this.deps.log.log('info', 'evidence.log_key_trusted_by_policy', {
        profile: target.profileId,
        from: logKeyFingerprint(pinned),
        to: fingerprint,
      });
      return { key: fetched.key };
    }
    const change: KeyChange = {
      profileId: target.profileId,
      service: target.service,
      previousFingerprint: logKeyFingerprint(pinned),
      fingerprint,
      publicKey: fetched.key,
      seenAt: this.now(),
    };
    this.deps.settings.set(changeOf(target.profileId), JSON.stringify(change));
    this.deps.log.log('warn', 'evidence.log_key_changed', {
      profile: target.profileId,
      from: change.previousFingerprint,
      to: fingerprint,
    });
    return { reason: keyChangeReason(change) };
  }

  /**
   * Evidence named a key other than the pinned one: the service may have changed its key. Looks
   * (backing off) and, if it did, records the change for the user to accept.
   */
  async noticeOtherKey(): Promise<KeyChange | null> {
    const target = this.deps.active();
    const pinned = this.deps.settings.get(keyOf(target.profileId));
    if (!pinned || target.configuredKey) return null;
    if (!this.keyChange(target.profileId)) await this.fetchAndCompare(target, pinned);
    return this.keyChange(target.profileId);
  }

  keyChange(profileId: string): KeyChange | null {
    const json = this.deps.settings.get(changeOf(profileId));
    return json ? (JSON.parse(json) as KeyChange) : null;
  }

  /** The user compared the new fingerprint and accepts it: from now on evidence is checked with it. */
  acceptKeyChange(profileId: string): KeyChange | null {
    const change = this.keyChange(profileId);
    if (!change) return null;
    this.pin({ profileId, service: change.service }, change.publicKey);
    this.deps.settings.delete(changeOf(profileId));
    this.deps.log.log('info', 'evidence.log_key_accepted', {
      profile: profileId,
      fingerprint: change.fingerprint,
    });
    return change;
  }

  /**
   * A verified tree head: checked against the newest one seen for the same key, which it replaces
   * when it is newer. A log that rewrote its history fails here, loudly and for good.
   */
  checkTreeHead(fingerprint: string, head: TreeHead): Promise<{ ok: true } | { ok: false; message: Said }> {
    return this.treeHeads.check(fingerprint, head);
  }

  private pin(target: Pick<TrustedService, 'profileId' | 'service'>, key: string): void {
    this.deps.settings.set(keyOf(target.profileId), key);
    this.deps.settings.set(knownKeyOf(logKeyFingerprint(key)), key);
    this.deps.settings.set(serviceOf(target.profileId), target.service);
  }

  /**
   * Asks the service for its key at most once per backoff period while it does not answer; rows
   * checked while the question is out share its answer instead of asking again.
   */
  private fetchKeyBackingOff(): Promise<KeyAnswer> {
    this.keyFetch ??= this.fetchKeyOnce().finally(() => (this.keyFetch = undefined));
    return this.keyFetch;
  }

  private async fetchKeyOnce(): Promise<KeyAnswer> {
    if (this.now() < this.nextFetchAt) return { reason: said('evidence.logKeyNotFetched') };
    const fetched = await this.reader?.fetchLogKey();
    if (fetched?.ok) {
      this.failedFetches = 0;
      this.nextFetchAt = 0;
      if (!isCanonicalSpki(fetched.value)) return { reason: said('evidence.logKeyUnreadable') };
      return { key: fetched.value };
    }
    this.failedFetches++;
    this.nextFetchAt =
      this.now() + Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (this.failedFetches - 1));
    this.deps.log.log('warn', 'evidence.log_key_unavailable', {
      failures: this.failedFetches,
      code: fetched?.ok === false ? fetched.code : null,
    });
    return { reason: said('evidence.logKeyNotFetched') };
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }
}

export function keyChangeReason(change: KeyChange): Said {
  return said('evidence.logKeyChanged', {
    before: change.previousFingerprint.slice(0, 16),
    after: change.fingerprint.slice(0, 16),
  });
}
