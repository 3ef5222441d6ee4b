import i18next from 'i18next';
import type { BatchMetadata } from '../../protocol/certification-request';
import type { EvidenceSelection, RowView } from '../../protocol/views';
import { BridgeError, ask, bridge, messageOf } from './bridge';
import { FILTERS } from './components/FilterBar';
import { desk } from './store';
import { sayWith } from '../../protocol/locales';
import type { Said } from '../../protocol/said';

/**
 * What the window's buttons do: each calls the bridge and says, in the notice, what happened or
 * why not. They read and write the one store, so any screen can start them.
 */
const t = i18next.t.bind(i18next);
const say = (text: string) => desk.set({ notice: { text, problems: [] } });

/** A call whose failure is only said: what it was for did not happen, and the notice says why. */
const sayingFailure = (call: Promise<unknown>) => void call.catch((error: unknown) => say(messageOf(error)));

/** Stops the kit being saved (its bar's Cancel). */
export const cancelKit = () => sayingFailure(ask(bridge().cancelExport({})));

/** Shows what this window saved, in the system's file manager. */
export const showSaved = (path: string) => sayingFailure(ask(bridge().showSaved({ path })));

/** Shows a certification's file in the system's file manager (the row menu's Show in folder). */
export const showFileInFolder = (id: number) => sayingFailure(ask(bridge().showInFolder({ id })));

/**
 * Keeps who certifies (the first batch asks): null once kept, or why it could not be kept (the
 * batch then waits: its rows would be recorded without the name the person typed).
 */
export async function rememberCertifier(certifier: { name: string; firm: string }): Promise<string | null> {
  try {
    await ask(bridge().setPreferences({ certifierName: certifier.name, certifierFirm: certifier.firm }));
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

/** Asks the service again now (the offline banner's Try now). */
export const tryNow = () => sayingFailure(ask(bridge().tryNow({})));

/** Sending goes on (the paused banner's Resume). */
export const resumeSending = () => sayingFailure(ask(bridge().setSendingPaused({ paused: false })));

/** Hands a certification's certificate or receipt to the system's drag and drop. */
export const dragOut = (id: number, what: 'certificate' | 'receipt') =>
  sayingFailure(ask(bridge().dragOut({ id, what })));

/** Everything the list shows now, for an action on all of it. */
export function shownSelection(): EvidenceSelection {
  const { filter, search, matter } = desk.get();
  return { states: [...(FILTERS[filter]?.states ?? [])], search: search || undefined, matter };
}

/** The chosen certifications: all the list shows, or the rows ticked; null when none is chosen. */
export function chosenSelection(): EvidenceSelection | null {
  const { allShown, selected } = desk.get();
  if (allShown) return shownSelection();
  return selected.size ? { ids: [...selected.keys()] } : null;
}

/** Everything the list shows becomes the choice (the header's box, Ctrl/Cmd+A). */
export const chooseAllShown = () => desk.set({ allShown: true, selected: new Map() });

export const clearChoice = () => desk.set({ allShown: false, selected: new Map() });

/** Removes those never anchored of the chosen certifications, and says how many went and how many stay. */
export async function removeChosen(): Promise<void> {
  const selection = chosenSelection();
  desk.set({ confirmingRemoval: false });
  if (!selection) return;
  try {
    const { removed, kept } = await ask(bridge().removeChosen(selection));
    clearChoice();
    say(
      [t('notice.removed', { count: removed }), kept > 0 ? t('notice.kept', { count: kept }) : '']
        .filter(Boolean)
        .join(' '),
    );
  } catch (error) {
    say(messageOf(error));
  }
}

/** A checkbox: the row joins the chosen ones, or leaves them. */
export function toggleChosenRow(row: RowView): void {
  const after = new Map(desk.get().selected);
  if (after.has(row.id)) after.delete(row.id);
  else after.set(row.id, row);
  desk.set({ selected: after });
}

/** Runs a save (kit or register) with a notice while it works, and says where it went or why not. */
async function saving<Saved extends { dir?: string | null; file?: string | null; sealWaiting?: Said | null }>(
  working: string,
  save: () => Promise<Saved | null>,
  done: (saved: Saved) => string,
  saveUnsealed?: () => void,
): Promise<void> {
  desk.set({ notice: { text: working, problems: [], working: true } });
  try {
    const saved = await save();
    // null: the person closed the save dialog, and nothing needs saying.
    desk.set({
      notice: saved && {
        text: done(saved),
        problems: [],
        // A certificate whose seal waits is not there yet: nothing to show in its folder.
        openFolder: saved.dir ?? (saved.sealWaiting ? undefined : (saved.file ?? undefined)),
        // A certificate that waits for its seal may be saved unsealed now, by choice.
        ...(saved.sealWaiting && !saved.dir && saveUnsealed ? { saveUnsealed } : {}),
      },
    });
  } catch (error) {
    // The authority refused the seal: nothing was saved, and saving unsealed is offered, never done unasked.
    const refused = error instanceof BridgeError && error.code === 'not_sealed';
    desk.set({
      notice: { text: messageOf(error), problems: [], ...(refused && saveUnsealed ? { saveUnsealed } : {}) },
    });
  }
}

export const exportRegister = (selection: EvidenceSelection) =>
  saving(
    t('notice.writingRegister'),
    () => ask(bridge().exportRegister(selection)),
    (written) =>
      t('notice.wroteRegister', {
        count: written.certifications,
        file: written.file,
        events: written.eventsFile,
      }),
  );

export const saveEvidence = (selection: EvidenceSelection, unsealed = false): Promise<void> =>
  saving(
    t('notice.savingEvidence'),
    // The kit's progress bar goes with the save, whichever way it ends.
    () =>
      ask(bridge().exportEvidence({ ...selection, ...(unsealed ? { unsealed } : {}) })).finally(() =>
        desk.set({ kitProgress: null }),
      ),
    // Saved, and not sealed yet: the notice says so, and why, beside where it went.
    (saved) =>
      [
        t('notice.savedEvidence', { count: saved.certifications, dir: saved.dir }),
        saved.sealWaiting ? sayWith(t)(saved.sealWaiting) : '',
      ]
        .filter(Boolean)
        .join(' '),
    () => void saveEvidence(selection, true),
  );

export const saveCertificate = (row: Pick<RowView, 'id' | 'fileName'>, unsealed = false): Promise<void> =>
  saving(
    t('notice.savingCertificate'),
    () => ask(bridge().saveCertificate({ id: row.id, ...(unsealed ? { unsealed } : {}) })),
    (saved) =>
      saved.sealWaiting
        ? sayWith(t)(saved.sealWaiting)
        : t('notice.savedCertificate', { name: row.fileName, file: saved.file }),
    () => void saveCertificate(row, true),
  );

export async function sendAgain(rows: RowView[]): Promise<void> {
  try {
    for (const row of rows) await ask(bridge().retry({ id: row.id }));
    desk.set({ selected: new Map() });
    say(t('notice.sendingAgain', { count: rows.length }));
  } catch (error) {
    say(messageOf(error));
  }
}

/** Certifies the chosen paths (or those given) as one batch, and says what was queued and what not. */
export async function certify(
  metadata: BatchMetadata,
  paths = desk.get().chosen,
  again = false,
): Promise<void> {
  desk.set({ chosen: [] });
  try {
    const { queued, problems, alreadyCertified } = await ask(bridge().certify({ paths, metadata, again }));
    desk.set({
      notice: {
        // "0 files queued" says nothing when every file was already certified: that list says it all.
        text: [
          queued > 0 || alreadyCertified.length === 0 ? t('notice.queued', { count: queued }) : '',
          problems.length ? t('notice.problems', { count: problems.length }) : '',
        ]
          .filter(Boolean)
          .join(' '),
        problems,
        alreadyCertified,
        certifyAgain: () =>
          void certify(
            metadata,
            alreadyCertified.map(({ path }) => path),
            true,
          ),
        // Said while the batch is on its way; files that could not be taken stay listed until dismissed.
        untilSettled: problems.length === 0 && alreadyCertified.length === 0,
      },
    });
  } catch (error) {
    say(messageOf(error));
  }
}
