import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { waitingCount } from '../../protocol/states';
import type { StateCounts } from '../../protocol/states';
import type { BatchMetadata } from '../../protocol/certification-request';
import { ask, bridge, messageOf } from './bridge';
import type { EvidenceSelection, ExportResult, ListSort, RowView } from '../../protocol/views';
import { SelectionBar } from './components/SelectionBar';
import {
  ConnectionBanner,
  ConnectionIndicator,
  DemoBanner,
  EnvironmentName,
  LogKeyChangeBanner,
  ProgressBars,
} from './components/Banners';
import { BatchForm } from './components/BatchForm';
import { CertificationList } from './components/CertificationList';
import { Details } from './components/Details';
import { DropZone, pathsOf } from './components/DropZone';
import { FILTERS, FilterBar } from './components/FilterBar';
import type { NoticeContent } from './components/Notice';
import { Notice } from './components/Notice';
import { Settings } from './components/Settings';
import { VerifyDialog } from './components/VerifyDialog';
import { useShellCommands } from './hooks/useShellCommands';
import { useStatus } from './hooks/useStatus';
import { useLanguageChoice } from './i18n';
import { keys } from './store';

export function App() {
  const { t } = useTranslation();
  useLanguageChoice(
    useQuery({ queryKey: keys.settings, queryFn: () => ask(bridge().settings({})) }).data?.language,
  );
  const [chosen, setChosen] = useState<string[]>([]);
  const [filter, setFilter] = useState(0);
  const [search, setSearch] = useState('');
  const [matter, setMatter] = useState<string | undefined>(undefined);
  const [sort, setSort] = useState<ListSort>({ column: 'added', direction: 'desc' });
  const [selected, setSelected] = useState<ReadonlyMap<number, RowView>>(new Map());
  const toggle = (row: RowView) =>
    setSelected((before) => {
      const after = new Map(before);
      if (after.has(row.id)) after.delete(row.id);
      else after.set(row.id, row);
      return after;
    });
  const [openId, setOpenId] = useState<number | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [notice, setNotice] = useState<NoticeContent | null>(null);
  // The verify dialog, with what was dropped or chosen for it (null: closed).
  const [verifying, setVerifying] = useState<string[] | null>(null);
  const counts = useStatus().data?.counts;
  useNoticeGoesWhenSettled(notice, counts, () => setNotice(null));
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const shown = (): EvidenceSelection => ({
    states: [...(FILTERS[filter]?.states ?? [])],
    search: search || undefined,
    matter,
  });

  /** Runs a save (kit or register) with a notice while it works, and says where it went or why not. */
  const saving = async (
    working: string,
    save: () => Promise<ExportResult | null>,
    done: (saved: ExportResult) => string,
  ) => {
    setNotice({ text: working, problems: [] });
    try {
      const saved = await save();
      // null: the person closed the save dialog, and nothing needs saying.
      setNotice(saved && { text: done(saved), problems: [] });
    } catch (error) {
      setNotice({ text: messageOf(error), problems: [] });
    }
  };
  const exportRegister = (selection: EvidenceSelection) =>
    saving(
      t('notice.writingRegister'),
      () => ask(bridge().exportRegister(selection)),
      (written) => t('notice.wroteRegister', { count: written.certifications, file: written.file }),
    );
  const saveEvidence = (selection: EvidenceSelection) =>
    saving(
      t('notice.savingEvidence'),
      () => ask(bridge().exportEvidence(selection)),
      (saved) => t('notice.savedEvidence', { count: saved.certifications, dir: saved.dir }),
    );

  const sendAgain = async (rows: RowView[]) => {
    try {
      for (const row of rows) await ask(bridge().retry({ id: row.id }));
      setSelected(new Map());
      setNotice({ text: t('notice.sendingAgain', { count: rows.length }), problems: [] });
    } catch (error) {
      setNotice({ text: messageOf(error), problems: [] });
    }
  };

  useShellCommands({
    'add-paths': ({ paths }) => setChosen(paths),
    'open-settings': () => setSettingsOpen(true),
    'verify-path': ({ path }) => setVerifying([path]),
  });

  const certify = async (metadata: BatchMetadata, paths = chosen, again = false) => {
    setChosen([]);
    try {
      const { queued, problems, alreadyCertified } = await ask(bridge().certify({ paths, metadata, again }));
      setNotice({
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
      });
    } catch (error) {
      setNotice({ text: messageOf(error), problems: [] });
    }
  };

  return (
    <DropZone onPaths={(paths) => (verifying ? setVerifying(paths) : setChosen(paths))}>
      <header className="top">
        <h1>Evidence Desk</h1>
        <EnvironmentName />
        <ConnectionIndicator />
        <button type="button" onClick={() => setVerifying([])}>
          {t('header.verify')}
        </button>
        <button type="button" onClick={() => setSettingsOpen(true)}>
          {t('header.settings')}
        </button>
      </header>
      <main>
        <DemoBanner />
        <ConnectionBanner onOpenSettings={() => setSettingsOpen(true)} />
        <LogKeyChangeBanner />
        <section className="intake" aria-label={t('intake.region')}>
          <p>{t('intake.explain')}</p>
          <button type="button" className="primary" onClick={() => fileInput.current?.click()}>
            {t('intake.addFiles')}
          </button>
          <button type="button" onClick={() => folderInput.current?.click()}>
            {t('intake.addFolder')}
          </button>
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            aria-hidden="true"
            onChange={(event) => setChosen(pathsOf(event.target.files))}
          />
          <input
            ref={folderInput}
            type="file"
            hidden
            aria-hidden="true"
            {...{ webkitdirectory: '' }}
            onChange={(event) => setChosen(pathsOf(event.target.files))}
          />
        </section>
        <ProgressBars />
        {notice && <Notice notice={notice} onDismiss={() => setNotice(null)} />}
        <FilterBar
          filter={filter}
          onFilter={setFilter}
          search={search}
          onSearch={setSearch}
          counts={counts}
          matter={matter}
          onMatter={setMatter}
          onSaveEvidence={() => void saveEvidence(shown())}
          onExportRegister={() => void exportRegister(shown())}
        />
        {selected.size > 0 && (
          <SelectionBar
            selected={selected}
            onSaveEvidence={() => void saveEvidence({ ids: [...selected.keys()] })}
            onExportRegister={() => void exportRegister({ ids: [...selected.keys()] })}
            onSendAgain={() => void sendAgain([...selected.values()].filter((row) => row.state === 'failed'))}
            onClear={() => setSelected(new Map())}
          />
        )}
        <CertificationList
          selected={selected}
          onToggle={toggle}
          states={FILTERS[filter]?.states ?? []}
          search={search}
          matter={matter}
          sort={sort}
          onSort={setSort}
          onOpen={(row) => setOpenId(row.id)}
        />
      </main>
      {chosen.length > 0 && (
        <BatchForm count={chosen.length} onCertify={(m) => void certify(m)} onCancel={() => setChosen([])} />
      )}
      {openId !== null && (
        <Details
          id={openId}
          onClose={() => setOpenId(null)}
          onSaveEvidence={(ids) => void saveEvidence({ ids })}
        />
      )}
      {verifying && <VerifyDialog dropped={verifying} onClose={() => setVerifying(null)} />}
      {settingsOpen && <Settings onClose={() => setSettingsOpen(false)} />}
    </DropZone>
  );
}

/** A notice about a batch on its way goes once nothing waits any more (after something did). */
function useNoticeGoesWhenSettled(
  notice: NoticeContent | null,
  counts: StateCounts | undefined,
  dismiss: () => void,
): void {
  const sawWaiting = useRef(false);
  const waiting = counts ? waitingCount(counts) : 0;
  useEffect(() => {
    if (!notice?.untilSettled) {
      sawWaiting.current = false;
      return;
    }
    if (waiting > 0) sawWaiting.current = true;
    else if (sawWaiting.current) dismiss();
  }, [notice, waiting, dismiss]);
}
