import { z } from 'zod';
import { batchMetadataSchema } from '../protocol/certification-request';
import { profileIdSchema, profileSecretsSchema, serviceProfileSchema } from '../protocol/profiles';
import { LOCAL_STATES } from '../protocol/states';
import { SORT_COLUMNS } from '../protocol/views';
import type { LanguageChoice } from '../protocol/locales/languages';
import { LANGUAGE_CHOICES } from '../protocol/locales/languages';
import type {
  CertificationDetails,
  CertifyResult,
  ConnectionTest,
  ConnectivityStatus,
  CoreStatus,
  DocumentVerification,
  ExportResult,
  IntakeProgress,
  KitProgress,
  ListPage,
  MattersView,
  QueueChanges,
  SettingsView,
  ShellCommand,
  WatchedFolderView,
} from '../protocol/views';
import type { CallName, EventName } from './channels';
import type { SetProgress, SetReportView } from '../protocol/sets';
import type { Said } from '../protocol/said';

/**
 * Every call and event that crosses IPC, written once: each call's input schema (main parses
 * every input against it) and result type, each event's payload type. The preload builds
 * `window.evidenceDesk` from the names; the renderer imports the types only. Adding a call means
 * adding its name in channels.ts, one schema and one result type here, and its handler in main.
 */
const id = z.number().int().positive();
const path = z.string().min(1).max(4096);
const states = z.array(z.enum(LOCAL_STATES)).max(LOCAL_STATES.length).optional();
const search = z.string().max(256).optional();
const matter = z.string().max(64).optional();
/** A watched folder's choices; its path is the one the person chose in the folder dialog. */
const watchChoices = z.object({
  matter: z.string().max(64).nullable(),
  eventType: z.string().min(1).max(64),
  assetType: z.string().min(1).max(64),
  include: z.string().max(256).nullable(),
  subfolders: z.boolean(),
  receiptsBeside: z.boolean(),
  method: z.enum(['auto', 'events', 'poll']),
  pollSeconds: z.number().int().min(5).max(86_400),
  settleMs: z.number().int().min(100).max(600_000),
});
/** Chosen rows, or everything a filter shows. */
const selection = z.object({ ids: z.array(id).min(1).max(1_000_000).optional(), states, search, matter });

export const CALLS = {
  certify: z.object({
    paths: z.array(path).min(1).max(100_000),
    metadata: batchMetadataSchema,
    /** Certify content already certified here once more (after the person said so). */
    again: z.boolean().optional(),
  }),
  list: z.object({
    states,
    search,
    matter,
    sort: z.object({ column: z.enum(SORT_COLUMNS), direction: z.enum(['asc', 'desc']) }).optional(),
    limit: z.number().int().min(1).max(1000),
    offset: z.number().int().min(0).optional(),
  }),
  details: z.object({ id }),
  retry: z.object({ id }),
  remove: z.object({ id }),
  /** Removes those never anchored of the chosen rows (or of all a filter shows); the others stay. */
  removeChosen: selection,
  tryNow: z.object({}),
  setSendingPaused: z.object({ paused: z.boolean() }),
  status: z.object({}),
  verifyDocument: z.object({ path, proofPath: path.optional() }),
  /** With `unsealed`, the person chose to save the kit without its seal (after the authority refused). */
  exportEvidence: selection.extend({ unsealed: z.boolean().optional() }),
  exportRegister: selection,
  /** One anchored certification's certificate, saved where the person chooses; unsealed only if asked. */
  saveCertificate: z.object({ id, unsealed: z.boolean().optional() }),
  /** Shows something saved in this session (a kit, register, report or certificate) in the file manager. */
  showSaved: z.object({ path }),
  /** Starts dragging an anchored certification's certificate or receipt out of the window. */
  dragOut: z.object({ id, what: z.enum(['certificate', 'receipt']) }),
  /** Stops the evidence kit being saved; what was written of it goes. */
  cancelExport: z.object({}),
  matters: z.object({}),
  showInFolder: z.object({ id }),
  acceptLogKey: z.object({}),
  setPreferences: z.object({
    receiptsBesideFiles: z.boolean().optional(),
    language: z.enum(LANGUAGE_CHOICES as [LanguageChoice, ...LanguageChoice[]]).optional(),
    launchAtLogin: z.boolean().optional(),
    sourceSystem: z.string().max(128).optional(),
    certifierName: z.string().max(128).optional(),
    certifierFirm: z.string().max(128).optional(),
  }),
  settings: z.object({}),
  /** With `use`, the saved profile also becomes the active one, in the same call (the previous stays active if it cannot). */
  saveProfile: z.object({
    profile: serviceProfileSchema,
    secrets: profileSecretsSchema,
    use: z.boolean().optional(),
  }),
  useProfile: z.object({ id: profileIdSchema }),
  /** A saved profile by id, or settings as typed (not yet saved) with any secrets typed. */
  testConnection: z.object({
    id: profileIdSchema.optional(),
    unsaved: z.object({ profile: serviceProfileSchema, secrets: profileSecretsSchema }).optional(),
  }),
  /** A whole set (folders and files) against a kit, a register, a load file, or this computer. */
  verifySet: z.object({
    paths: z.array(path).min(1).max(100_000),
    against: z
      .object({
        path,
        pathField: z.string().min(1).max(100).optional(),
        hashField: z.string().min(1).max(100).optional(),
        /** The person compared the kit's fingerprints and chose to trust its keys for this check. */
        trustKit: z.boolean().optional(),
      })
      .optional(),
  }),
  /** The last set's report, saved where the person chooses. */
  saveSetReport: z.object({ format: z.enum(['csv', 'pdf']) }),
  watchedFolders: z.object({}),
  /** The folder dialog: the only way a path to watch reaches main from the window. */
  chooseFolderToWatch: z.object({}),
  findDocumentsToRenew: z.object({}),
  addWatchedFolder: z.object({ path, choices: watchChoices }),
  updateWatchedFolder: z.object({ id, choices: watchChoices }),
  removeWatchedFolder: z.object({ id }),
  setWatchedFolderPaused: z.object({ id, paused: z.boolean() }),
} as const satisfies Record<CallName, z.ZodType>;

/** What each call answers with when it succeeds. */
export interface CallResults {
  certify: CertifyResult;
  list: ListPage;
  details: CertificationDetails;
  retry: null;
  remove: null;
  removeChosen: { removed: number; kept: number };
  tryNow: null;
  setSendingPaused: null;
  status: CoreStatus;
  verifyDocument: DocumentVerification;
  /** null when the person closed the folder dialog without choosing. */
  exportEvidence: ExportResult | null;
  /** null when the person closed the save dialog without choosing. */
  exportRegister: ExportResult | null;
  /** null when the person closed the save dialog without choosing. */
  saveCertificate: { file: string; sealWaiting?: Said } | null;
  showSaved: null;
  dragOut: null;
  cancelExport: null;
  matters: MattersView;
  showInFolder: null;
  acceptLogKey: { rechecked: number };
  setPreferences: null;
  settings: SettingsView;
  saveProfile: null;
  useProfile: null;
  testConnection: ConnectionTest;
  verifySet: SetReportView;
  /** null when the person closed the save dialog without choosing. */
  saveSetReport: { file: string } | null;
  watchedFolders: WatchedFolderView[];
  /** null when the person closed the folder dialog without choosing. */
  chooseFolderToWatch: string | null;
  /** The documents found in the folder chosen and renewed to SHA-512, and those still missing; null when cancelled. */
  findDocumentsToRenew: { found: number; missing: number } | null;
  addWatchedFolder: WatchedFolderView;
  updateWatchedFolder: WatchedFolderView;
  removeWatchedFolder: null;
  setWatchedFolderPaused: WatchedFolderView;
}

/** What each event carries. */
export interface EventPayloads {
  changes: QueueChanges;
  connectivity: ConnectivityStatus;
  progress: IntakeProgress;
  command: ShellCommand;
  setProgress: SetProgress;
  watchedFolders: WatchedFolderView[];
  kitProgress: KitProgress;
}

export type CallInput<N extends CallName> = z.input<(typeof CALLS)[N]>;
export type ParsedInput<N extends CallName> = z.output<(typeof CALLS)[N]>;

// Every name has a result type and every event a payload type: a missing entry fails to compile.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const CONTRACT_IS_COMPLETE: Exactly<keyof CallResults, CallName> &
  Exactly<keyof EventPayloads, EventName> = true;

export { CALL_NAMES, EVENTS, channelOf, eventChannelOf } from './channels';
export type { CallName, EventName } from './channels';
export type { CallResult, ErrorCode } from '../protocol/errors';
