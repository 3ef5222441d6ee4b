/**
 * Every key of the settings table, in one place: what each holds and who writes it. The table is
 * small named values kept with the queue; a key outside this list does not type-check.
 */
export const SETTING = {
  /** The service profile in use (its id); the embedded sandbox when unset. */
  activeProfile: 'active_profile',
  /** The screens' language: 'system' or one of ours (preferences). */
  language: 'language',
  /** 'on' when a receipt is written beside each certified file once anchored (preferences). */
  receiptsBesideFiles: 'receipts_beside_files',
  /** The source system the service records for certifications made here (preferences; IT's policy wins). */
  sourceSystem: 'source_system',
  /** Who certifies at this computer, as the person wrote it once: their name, and their firm (preferences). */
  certifierName: 'certifier_name',
  certifierFirm: 'certifier_firm',
  /** A saved service profile, as JSON (profile connections; secrets are in the keychain, never here). */
  profile: (id: string) => `profile:${id}` as const,
  /** The log key pinned for a profile, base64 SPKI (log trust). */
  logKey: (profileId: string) => `log_key:${profileId}` as const,
  /** The service that pinned key belongs to (log trust). */
  logKeyService: (profileId: string) => `log_key_service:${profileId}` as const,
  /** A changed log key waiting for the person to accept it, as JSON (log trust). */
  logKeyChange: (profileId: string) => `log_key_change:${profileId}` as const,
  /** Every log key any profile here has trusted, by fingerprint: what receipts are checked against. */
  knownLogKey: (fingerprint: string) => `log_key_known:${fingerprint}` as const,
  /** The newest signed tree head seen from a log, as JSON (log trust: the log may only grow). */
  treeHead: (fingerprint: string) => `log_head:${fingerprint}` as const,
  /** What was said when a log was found to have rewritten its history (log trust). */
  logRewritten: (fingerprint: string) => `log_rewritten:${fingerprint}` as const,
  /** How many days before its certificates expire an evidence record is renewed (IT's policy may set it). */
  renewalMarginDays: 'renewal_margin_days',
  /** When evidence records were last checked for renewal, ms since the epoch (record renewal). */
  renewalCheckedAt: 'renewal_checked_at',
  /** When a timestamping authority may next be asked, ms since the epoch (its pace, for every process here). */
  authorityNextAt: (url: string) => `tsa_next_at:${url}` as const,
};

type KeyOf<T> = T extends string ? T : T extends (...args: never[]) => infer K ? K : never;
export type SettingKey = KeyOf<(typeof SETTING)[keyof typeof SETTING]>;

/** A family of keys that end in a name (a profile id, a fingerprint), for reading them all. */
export type SettingPrefix = 'log_key_known:';
