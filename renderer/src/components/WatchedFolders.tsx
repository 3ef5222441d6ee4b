import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchMetadata } from '../../../protocol/certification-request';
import type { WatchMethod, WatchedFolderView } from '../../../protocol/views';
import { messageOf } from '../bridge';
import { readWatchedFolders } from '../calls/reads';
import {
  addWatchedFolder,
  chooseFolderToWatch,
  pauseWatchedFolder,
  stopWatchingFolder,
} from '../calls/watched';
import { useSay } from '../i18n';
import { desk, useDesk } from '../store';
import { MetadataFields, metadataComplete, rememberedMetadata } from './BatchForm';
import { WATCH_DEFAULTS } from '../../../protocol/watched-folders';
import { Checkbox } from './Checkbox';

/** What the form holds while a folder is being set up. */
interface Draft {
  path: string;
  metadata: BatchMetadata;
  include: string;
  subfolders: boolean;
  receiptsBeside: boolean;
  method: WatchMethod;
  pollSeconds: number;
  settleSeconds: number;
}

/**
 * Settings → Watched folders: each folder with how it is doing (and why not), Pause/Resume and
 * Stop watching; "Watch a folder…" chooses one in the system's folder dialog, then asks what its
 * files are, as a batch would.
 */
export function WatchedFolders() {
  const { t } = useTranslation();
  const folders = useDesk((state) => state.folders) ?? [];
  const [draft, setDraft] = useState<Draft | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const act = async (action: () => Promise<unknown>) => {
    setProblem(null);
    try {
      await action();
      desk.set({ folders: await readWatchedFolders() });
    } catch (error) {
      setProblem(messageOf(error));
    }
  };
  // Not read when the window opened (main could not answer then): read as Settings opens, or say why not here.
  useEffect(() => {
    if (desk.get().folders === null) void act(async () => undefined);
  }, []);
  const choose = () =>
    act(async () => {
      const path = await chooseFolderToWatch();
      if (path === null) return;
      setDraft({
        path,
        metadata: rememberedMetadata(),
        include: '',
        subfolders: WATCH_DEFAULTS.subfolders,
        receiptsBeside: WATCH_DEFAULTS.receiptsBeside,
        method: WATCH_DEFAULTS.method,
        pollSeconds: WATCH_DEFAULTS.pollSeconds,
        settleSeconds: WATCH_DEFAULTS.settleMs / 1000,
      });
    });

  return (
    <fieldset className="watched-folders">
      <legend>{t('watch.title')}</legend>
      <p className="hint">{t('watch.explain')}</p>
      {folders.length === 0 && !draft && <p className="hint">{t('watch.none')}</p>}
      <ul className="folders" aria-label={t('watch.title')}>
        {folders.map((folder) => (
          <FolderLine key={folder.id} folder={folder} act={act} />
        ))}
      </ul>
      {draft ? (
        <FolderForm
          draft={draft}
          onChange={setDraft}
          onCancel={() => setDraft(null)}
          onWatch={() =>
            act(async () => {
              await addWatchedFolder({
                path: draft.path,
                choices: {
                  matter: draft.metadata.matter?.trim() || null,
                  eventType: draft.metadata.event_type,
                  assetType: draft.metadata.asset_type,
                  include: draft.include.trim() || null,
                  subfolders: draft.subfolders,
                  receiptsBeside: draft.receiptsBeside,
                  method: draft.method,
                  pollSeconds: draft.pollSeconds,
                  settleMs: Math.round(draft.settleSeconds * 1000),
                },
              });
              setDraft(null);
            })
          }
        />
      ) : (
        <button type="button" onClick={() => void choose()}>
          {t('watch.add')}
        </button>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}

function FolderLine({
  folder,
  act,
}: {
  folder: WatchedFolderView;
  act(action: () => Promise<unknown>): Promise<void>;
}) {
  const { t } = useTranslation();
  const say = useSay();
  const broken = folder.status === 'unavailable';
  return (
    <li className={`folder ${broken ? 'unavailable' : ''}`}>
      <div className="folder-path">{folder.path}</div>
      <div className={broken ? 'error' : 'hint'} role={broken ? 'alert' : undefined}>
        {t(`watch.status.${folder.status}`, {
          how: folder.polled ? t('watch.polledEvery', { seconds: folder.pollSeconds }) : t('watch.byEvents'),
        })}
        {folder.problem && <> — {say(folder.problem)}</>}
      </div>
      <div className="hint">
        {t('watch.summary', {
          matter: folder.matter ?? t('watch.noMatter'),
          eventType: folder.eventType,
          assetType: folder.assetType,
          include: folder.include ?? t('watch.everyFile'),
          subfolders: t(folder.subfolders ? 'watch.withSubfolders' : 'watch.withoutSubfolders'),
        })}
        {folder.receiptsBeside && <> · {t('watch.receiptsBesideShort')}</>}
      </div>
      <div className="folder-actions">
        <button
          type="button"
          onClick={() => void act(() => pauseWatchedFolder(folder.id, !folder.paused))}
          aria-label={t(folder.paused ? 'watch.resumeFolder' : 'watch.pauseFolder', { path: folder.path })}
        >
          {t(folder.paused ? 'watch.resume' : 'watch.pause')}
        </button>
        <button
          type="button"
          onClick={() => void act(() => stopWatchingFolder(folder.id))}
          aria-label={t('watch.removeFolder', { path: folder.path })}
        >
          {t('watch.remove')}
        </button>
      </div>
    </li>
  );
}

function FolderForm({
  draft,
  onChange,
  onCancel,
  onWatch,
}: {
  draft: Draft;
  onChange(draft: Draft): void;
  onCancel(): void;
  onWatch(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const edit = (change: Partial<Draft>) => onChange({ ...draft, ...change });
  const ready = metadataComplete(draft.metadata) && draft.settleSeconds >= 0.1 && draft.pollSeconds >= 5;
  return (
    <div
      className="folder-form"
      role="group"
      aria-label={t('watch.setUp', { path: draft.path })}
      // Enter here sets up the folder; it must not submit the settings form around it.
      onKeyDown={(event) => {
        if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
        event.preventDefault();
        if (ready) onWatch();
      }}
    >
      <p className="folder-path">{draft.path}</p>
      <MetadataFields metadata={draft.metadata} onChange={(metadata) => edit({ metadata })} />
      <label htmlFor={`${id}-include`}>{t('watch.include')}</label>
      <input
        id={`${id}-include`}
        value={draft.include}
        placeholder={t('watch.includePlaceholder')}
        onChange={(event) => edit({ include: event.target.value })}
        maxLength={256}
        spellCheck={false}
      />
      <Checkbox checked={draft.subfolders} onChange={(subfolders) => edit({ subfolders })}>
        {t('watch.subfolders')}
      </Checkbox>
      <Checkbox checked={draft.receiptsBeside} onChange={(receiptsBeside) => edit({ receiptsBeside })}>
        {t('watch.receiptsBeside')}
      </Checkbox>
      <label htmlFor={`${id}-settle`}>{t('watch.settle')}</label>
      <input
        id={`${id}-settle`}
        type="number"
        min={0.1}
        step={0.5}
        value={draft.settleSeconds}
        onChange={(event) => edit({ settleSeconds: Number(event.target.value) })}
      />
      <label htmlFor={`${id}-method`}>{t('watch.method')}</label>
      <select
        id={`${id}-method`}
        value={draft.method}
        onChange={(event) => edit({ method: event.target.value as WatchMethod })}
      >
        {(['auto', 'events', 'poll'] as const).map((method) => (
          <option key={method} value={method}>
            {t(`watch.methods.${method}`)}
          </option>
        ))}
      </select>
      {draft.method !== 'events' && (
        <>
          <label htmlFor={`${id}-poll`}>{t('watch.pollSeconds')}</label>
          <input
            id={`${id}-poll`}
            type="number"
            min={5}
            step={5}
            value={draft.pollSeconds}
            onChange={(event) => edit({ pollSeconds: Math.round(Number(event.target.value)) })}
          />
        </>
      )}
      <div className="actions">
        <button type="button" onClick={onCancel}>
          {t('watch.cancel')}
        </button>
        <button type="button" className="primary" disabled={!ready} onClick={onWatch}>
          {t('watch.watch')}
        </button>
      </div>
    </div>
  );
}
