import { z } from 'zod';
import type {
  CallInput,
  CallName,
  CallResult,
  CallResults,
  ErrorCode,
  EventName,
  EventPayloads,
  ParsedInput,
} from '../../preload/contract';
import { CALLS } from '../../preload/contract';
import type { CertificationRow, LanguageChoice, RowView } from '../../protocol/views';
import type { EvidenceCore } from '../core';
import { certificateFileName } from '../evidence/evidence-exports';
import { isDeskError } from '../errors';
import type { Logger } from '../logging/logger';
import { said } from '../../protocol/said';
import type { Said } from '../../protocol/said';
import { inEnglish } from '../../protocol/locales';
import { DeskError } from '../errors';
import { progressPace } from '../progress-pace';
import { SET_LINES_SHOWN, setReportView } from '../../protocol/sets';
import { WindowSession } from './window-session';

export const toRowView = ({ rawResponse: _raw, evidence: _evidence, ...view }: CertificationRow): RowView =>
  view;

type Implementations = {
  [N in CallName]: (input: ParsedInput<N>) => Promise<CallResults[N]> | CallResults[N];
};

/** What only the shell can do for a call: ask the person where to save (a native dialog in Electron). */
export interface ShellServices {
  chooseExportFolder(): Promise<string | null>;
  /** Where to save the register (a CSV file), or null when the person cancelled. */
  chooseRegisterFile(suggestedName: string): Promise<string | null>;
  /** Where to save a set's report (CSV or PDF), or null when the person cancelled. */
  chooseReportFile(suggestedName: string, format: 'csv' | 'pdf'): Promise<string | null>;
  /** Where to save one certificate (a PDF), or null when the person cancelled. */
  chooseCertificateFile(suggestedName: string): Promise<string | null>;
  /** A folder to watch, or null when the person cancelled. */
  chooseFolderToWatch(): Promise<string | null>;
  /** A folder that may hold documents to renew to SHA-512, or null when the person cancelled. */
  chooseDocumentsFolder(): Promise<string | null>;
  /** Hands the file to the system's drag and drop, as the mouse drags it out of the window. */
  startDrag(path: string): void;
  /** Shows the file in the system's file manager (Explorer, Finder). */
  showInFolder(path: string): void;
  /** Whether the app starts at login (the OS keeps this); null where it cannot. */
  launchAtLogin(): boolean | null;
  setLaunchAtLogin(on: boolean): void;
  /** The screens' language changed: the menu, tray and notifications follow. */
  languageChanged(language: LanguageChoice): void;
}

/** For tools without a window (tests, benchmarks): every dialog is cancelled, nothing is shown. */
export const WINDOWLESS_SHELL: ShellServices = {
  chooseExportFolder: async () => null,
  chooseRegisterFile: async () => null,
  chooseReportFile: async () => null,
  chooseCertificateFile: async () => null,
  chooseFolderToWatch: async () => null,
  chooseDocumentsFolder: async () => null,
  showInFolder: () => undefined,
  startDrag: () => undefined,
  launchAtLogin: () => null,
  setLaunchAtLogin: () => undefined,
  languageChanged: () => undefined,
};

/** Each call's work on the core, typed by the contract: a handler cannot answer a shape the renderer does not expect. */
function implementations(core: EvidenceCore, shell: ShellServices): Implementations {
  // What main keeps of this window between calls: what it saved, chose, is saving and checked last.
  const session = new WindowSession();
  const remember = <T extends object>(result: T, ...paths: (string | null)[]): T =>
    session.remember(result, ...paths);
  // Calls that only act answer `null`, so "it worked" is a value like any other.
  const acting = async (action: () => unknown): Promise<null> => {
    await action();
    return null;
  };
  return {
    certify: async ({ paths, metadata, again }) => {
      const report = await core.certify(paths, metadata, { again });
      return {
        queued: report.queued.length,
        problems: report.problems,
        alreadyCertified: report.alreadyCertified,
      };
    },
    // The total comes with each page, so the list never guesses its length from other counts.
    list: (query) => ({ rows: core.queue.list(query).map(toRowView), total: core.queue.count(query) }),
    details: ({ id }) => core.queue.details(id),
    retry: ({ id }) => acting(() => core.queue.retry(id)),
    remove: ({ id }) => acting(() => core.queue.remove(id)),
    removeChosen: (selection) => core.queue.removeNeverAnchored(core.exports.selectedIds(selection)),
    tryNow: () => acting(() => core.sync.tryNow()),
    setSendingPaused: ({ paused }) => acting(() => (paused ? core.sync.pause() : core.sync.resume())),
    status: () => core.status(),
    verifyDocument: ({ path, proofPath }) => core.verification.verifyDocument(path, proofPath),
    exportEvidence: async ({ unsealed, ...selection }) => {
      // Cancel holds from the start: while the person still chooses the folder too.
      const stop = session.startExport();
      try {
        const dir = await shell.chooseExportFolder();
        if (dir === null) return null;
        // Ten times a second at most: a kit of 10,000 is not 10,000 messages to the window.
        const due = progressPace(100);
        let made = 0;
        const written = await core.exports.exportEvidence(selection, {
          dir,
          ...(unsealed ? { seal: false } : {}),
          signal: stop.signal,
          onProgress: (done, total) => {
            if (due(done === total)) core.emit('kitProgress', { done, total });
            made = total;
          },
          onSealing: (until) => core.emit('kitProgress', { done: made, total: made, sealingUntil: until }),
        });
        return remember(written, written.dir, written.zip);
      } finally {
        session.endExport(stop);
      }
    },
    exportRegister: async (selection) => {
      const file = await shell.chooseRegisterFile(registerFileName(selection.matter));
      return file === null ? null : remember(await core.exports.exportRegister(selection, file), file);
    },
    saveCertificate: async ({ id, unsealed }) => {
      const row = core.queue.details(id).row;
      const file = await shell.chooseCertificateFile(certificateFileName(row.fileName));
      return file === null
        ? null
        : remember(
            // The person's own save: a seal the authority cannot give now waits, and the file comes then.
            await core.exports.saveCertificate(id, file, { unsealed: unsealed ?? false, mayWait: true }),
            file,
          );
    },
    cancelExport: () => acting(() => session.cancelExport()),
    dragOut: async ({ id, what }) =>
      acting(async () => shell.startDrag(await core.exports.fileToDrag(id, what))),
    showSaved: ({ path }) => {
      if (!session.savedHere(path)) throw new DeskError('forbidden', said('calls.notSavedHere'));
      return acting(() => shell.showInFolder(path));
    },
    verifySet: async ({ paths, against }) => {
      const report = await core.sets.verifySet(paths, against ?? null, (progress) =>
        core.emit('setProgress', progress),
      );
      // The report is saved from main; the window gets what its table shows.
      return setReportView(session.keepSetReport(report), SET_LINES_SHOWN);
    },
    saveSetReport: async ({ format }) => {
      const lastSetReport = session.lastSetReport;
      if (!lastSetReport) throw new DeskError('invalid_input', said('sets.noReportYet'));
      const file = await shell.chooseReportFile(
        `Verification ${new Date().toISOString().slice(0, 10)}.${format}`,
        format,
      );
      if (file === null) return null;
      await core.sets.saveReport(lastSetReport, file);
      return remember({ file }, file);
    },
    watchedFolders: () => core.watched.list(),
    chooseFolderToWatch: async () => {
      const folder = await shell.chooseFolderToWatch();
      if (folder !== null) session.chose(folder);
      return folder;
    },
    findDocumentsToRenew: async () => {
      const folder = await shell.chooseDocumentsFolder();
      if (folder === null) return null;
      const { hashTree } = await core.renewRecords({ documentFolders: [folder] });
      return { found: hashTree.renewing, missing: hashTree.missing.length };
    },
    addWatchedFolder: ({ path, choices }) => {
      if (!session.wasChosen(path)) throw new DeskError('forbidden', said('watch.notChosen'));
      return core.watched.add({ ...choices, path });
    },
    updateWatchedFolder: ({ id, choices }) => core.watched.update(id, choices),
    removeWatchedFolder: ({ id }) => acting(() => core.watched.remove(id)),
    setWatchedFolderPaused: ({ id, paused }) => core.watched.setPaused(id, paused),
    matters: () => ({ recent: core.queue.recentMatters(), counts: core.queue.matterCounts() }),
    showInFolder: ({ id }) => acting(() => shell.showInFolder(core.queue.details(id).row.filePath)),
    acceptLogKey: async () => ({ rechecked: await core.profiles.acceptLogKeyChange() }),
    setPreferences: ({
      receiptsBesideFiles,
      language,
      launchAtLogin,
      sourceSystem,
      certifierName,
      certifierFirm,
    }) =>
      acting(() => {
        if (sourceSystem !== undefined) core.preferences.setSourceSystem(sourceSystem);
        if (certifierName !== undefined || certifierFirm !== undefined) {
          const before = core.preferences.certifier;
          core.preferences.setCertifier({
            name: certifierName ?? before.name,
            firm: certifierFirm ?? before.firm,
          });
        }
        if (receiptsBesideFiles !== undefined) core.preferences.setReceiptsBesideFiles(receiptsBesideFiles);
        if (launchAtLogin !== undefined) shell.setLaunchAtLogin(launchAtLogin);
        if (language !== undefined) {
          core.preferences.setLanguage(language);
          shell.languageChanged(language);
        }
      }),
    settings: async () => {
      const active = core.activeProfileId;
      const profile = core.profiles.read(active) ?? null;
      return {
        active,
        profile,
        secretsSet: profile ? await core.profiles.secretsSet(active) : null,
        receiptsBesideFiles: core.preferences.receiptsBesideFiles,
        language: core.preferences.language,
        launchAtLogin: shell.launchAtLogin(),
        sourceSystem: core.preferences.sourceSystem,
        certifier: core.preferences.certifier,
      };
    },
    saveProfile: ({ profile, secrets, use }) =>
      acting(() => (use ? core.profiles.saveAndUse(profile, secrets) : core.profiles.save(profile, secrets))),
    useProfile: ({ id }) => acting(() => core.profiles.use(id)),
    testConnection: async ({ id, unsaved }) => {
      const result = unsaved
        ? await core.profiles.testUnsaved(unsaved.profile, unsaved.secrets)
        : await core.profiles.test(id);
      // The screens say "Connected" in their own language; a failure says why, the service's words quoted.
      return result.ok
        ? { ok: true, message: null, tokenSeconds: result.value.expiresInSeconds }
        : { ok: false, message: result.said };
    },
  };
}

/** "Register M-2024-118 2026-11-22.csv": the matter made safe as a file name, and the day. */
export function registerFileName(matter: string | undefined, now = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  const name = matter ? ` ${matter.replace(/[<>:"/\\|?*\p{Cc}]/gu, '-')}` : '';
  return `Register${name} ${day}.csv`;
}

export type IpcInvoke = <N extends CallName>(
  name: N,
  input: CallInput<N> | unknown,
) => Promise<CallResult<CallResults[N]>>;

/**
 * The one wrapper every IPC call goes through in main: the name must be in the contract, the
 * input must parse against its schema (handlers never see `unknown`), and every outcome is a
 * `{ ok, value }` or `{ ok: false, error: { code, message } }` — never a thrown error or a stack.
 */
export function createIpcInvoke(core: EvidenceCore, log: Logger, shell: ShellServices): IpcInvoke {
  const table = implementations(core, shell);
  return async <N extends CallName>(name: N, input: unknown): Promise<CallResult<CallResults[N]>> => {
    if (!Object.hasOwn(CALLS, name)) return failure('unknown_call', said('calls.unknown'));
    const parsed = CALLS[name].safeParse(input);
    if (!parsed.success) return invalidInput(parsed.error);
    try {
      const implementation = table[name] as (input: unknown) => Promise<CallResults[N]> | CallResults[N];
      return { ok: true, value: await implementation(parsed.data) };
    } catch (error) {
      if (isDeskError(error)) return failure(error.code, error.said);
      if (error instanceof z.ZodError) return invalidInput(error);
      log.log('error', 'ipc.call_failed', { call: name, error: (error as Error).message });
      return failure('internal_error', said('calls.internal'));
    }
  };
}

export type EventSender = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

/** Forwards the core's change stream and events to a sender (the window's webContents). */
export function forwardCoreEvents(core: EvidenceCore, send: EventSender): () => void {
  const onConnectivity = (status: EventPayloads['connectivity']) => send('connectivity', status);
  const onProgress = (progress: EventPayloads['progress']) => send('progress', progress);
  const onSetProgress = (progress: EventPayloads['setProgress']) => send('setProgress', progress);
  const onKitProgress = (progress: EventPayloads['kitProgress']) => send('kitProgress', progress);
  const onWatched = () => send('watchedFolders', core.watched.list());
  const stopChanges = core.onChanges((changes) => send('changes', changes));
  core.watched.on('changed', onWatched);
  core.on('connectivity', onConnectivity);
  core.on('progress', onProgress);
  core.on('setProgress', onSetProgress);
  core.on('kitProgress', onKitProgress);
  return () => {
    stopChanges();
    core.off('connectivity', onConnectivity);
    core.off('progress', onProgress);
    core.off('setProgress', onSetProgress);
    core.off('kitProgress', onKitProgress);
    core.watched.off('changed', onWatched);
  };
}

const failure = (code: ErrorCode, saying: Said): CallResult<never> => ({
  ok: false,
  error: { code, message: inEnglish(saying), said: saying },
});

const invalidInput = (error: z.ZodError) =>
  failure('invalid_input', said('calls.invalidInput', { detail: z.prettifyError(error) }));
