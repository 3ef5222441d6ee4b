import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { waitingCount } from '../../protocol/states';
import type { StateCounts } from '../../protocol/states';
import { readSettings } from './calls/reads';
import { SelectionBar } from './components/SelectionBar';
import {
  ConnectionBanner,
  ConnectionIndicator,
  DemoBanner,
  EnvironmentName,
  LogKeyChangeBanner,
  WatchedFolderBanner,
  WatchingCount,
  ProgressBars,
} from './components/Banners';
import { RecordsBanner, RecordsLine } from './components/RecordsStatus';
import { BatchForm } from './components/BatchForm';
import { CertificationList } from './components/CertificationList';
import { Details } from './components/Details';
import { DropZone, pathsOf } from './components/DropZone';
import { FILTERS, FilterBar, SEARCH_FIELD } from './components/FilterBar';
import { RemoveChosenDialog } from './components/RemoveChosenDialog';
import { useListShortcuts } from './hooks/useListShortcuts';
import {
  certify,
  chooseAllShown,
  chosenSelection,
  clearChoice,
  exportRegister,
  removeChosen,
  saveCertificate,
  saveEvidence,
  sendAgain,
  shownSelection,
  toggleChosenRow,
} from './actions';
import type { NoticeContent } from './store';
import { Notice } from './components/Notice';
import { Settings } from './components/Settings';
import { VerifyDialog } from './components/VerifyDialog';
import { VerifySetDialog } from './components/VerifySetDialog';
import { HiddenPicker } from './components/HiddenPicker';
import { useShellCommands } from './hooks/useShellCommands';
import { useStatus } from './hooks/useStatus';
import { useLanguageChoice } from './i18n';
import { desk, keys, useDesk } from './store';

export function App() {
  const { t } = useTranslation();
  useLanguageChoice(useQuery({ queryKey: keys.settings, queryFn: readSettings }).data?.language);
  // Each field on its own: the window does not redraw for progress or connection events.
  const chosen = useDesk((state) => state.chosen);
  const filter = useDesk((state) => state.filter);
  const search = useDesk((state) => state.search);
  const matter = useDesk((state) => state.matter);
  const sort = useDesk((state) => state.sort);
  const selected = useDesk((state) => state.selected);
  const allShown = useDesk((state) => state.allShown);
  const confirmingRemoval = useDesk((state) => state.confirmingRemoval);
  const openId = useDesk((state) => state.openId);
  const settingsOpen = useDesk((state) => state.settingsOpen);
  const notice = useDesk((state) => state.notice);
  const verifying = useDesk((state) => state.verifying);
  const verifyingSet = useDesk((state) => state.verifyingSet);
  const counts = useStatus().data?.counts;
  useNoticeGoesWhenSettled(notice, counts, () => desk.set({ notice: null }));
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const setChosen = (paths: string[]) => desk.set({ chosen: paths });
  const openSettings = () => desk.set({ settingsOpen: true });

  const askToRemove = () => {
    if (chosenSelection()) desk.set({ confirmingRemoval: true });
  };
  useListShortcuts({
    search: () => document.getElementById(SEARCH_FIELD)?.focus(),
    chooseAll: chooseAllShown,
    remove: askToRemove,
  });

  useShellCommands({
    'add-paths': ({ paths }) => setChosen(paths),
    'open-settings': openSettings,
    'verify-path': ({ path }) => desk.set({ verifying: [path] }),
  });

  return (
    <DropZone
      onPaths={(paths) =>
        verifyingSet
          ? desk.set({ verifyingSet: paths })
          : verifying
            ? desk.set({ verifying: paths })
            : setChosen(paths)
      }
    >
      <header className="top">
        <h1>Evidence Desk</h1>
        <EnvironmentName />
        <ConnectionIndicator />
        <WatchingCount />
        <button type="button" onClick={() => desk.set({ verifying: [] })}>
          {t('header.verify')}
        </button>
        <button type="button" onClick={openSettings}>
          {t('header.settings')}
        </button>
      </header>
      <main>
        <DemoBanner />
        <ConnectionBanner onOpenSettings={openSettings} />
        <LogKeyChangeBanner />
        <WatchedFolderBanner onOpenSettings={openSettings} />
        <RecordsBanner onOpenSettings={openSettings} />
        <section className="intake" aria-label={t('intake.region')}>
          <p>{t('intake.explain')}</p>
          <button type="button" className="primary" onClick={() => fileInput.current?.click()}>
            {t('intake.addFiles')}
          </button>
          <button type="button" onClick={() => folderInput.current?.click()}>
            {t('intake.addFolder')}
          </button>
          <HiddenPicker ref={fileInput} multiple onPick={(files) => setChosen(pathsOf(files))} />
          <HiddenPicker ref={folderInput} folder onPick={(files) => setChosen(pathsOf(files))} />
        </section>
        <RecordsLine />
        <ProgressBars />
        {/* With a certification's details open, they say it (this would be behind them). */}
        {notice && openId === null && <Notice notice={notice} onDismiss={() => desk.set({ notice: null })} />}
        <FilterBar
          filter={filter}
          // What "all shown" chose goes when what is shown changes.
          onFilter={(index) => desk.set({ filter: index, allShown: false })}
          search={search}
          onSearch={(text) => desk.set({ search: text, allShown: false })}
          counts={counts}
          matter={matter}
          onMatter={(chosenMatter) => desk.set({ matter: chosenMatter, allShown: false })}
          onSaveEvidence={() => void saveEvidence(shownSelection())}
          onExportRegister={() => void exportRegister(shownSelection())}
        />
        {(selected.size > 0 || allShown) && (
          <SelectionBar
            selected={selected}
            allShown={allShown}
            onSaveEvidence={() => void saveEvidence(chosenSelection() ?? shownSelection())}
            onExportRegister={() => void exportRegister(chosenSelection() ?? shownSelection())}
            onSendAgain={() => void sendAgain([...selected.values()].filter((row) => row.state === 'failed'))}
            onRemove={askToRemove}
            onClear={clearChoice}
          />
        )}
        <CertificationList
          selected={selected}
          allShown={allShown}
          onToggleAll={() => (allShown ? clearChoice() : chooseAllShown())}
          onToggle={toggleChosenRow}
          states={FILTERS[filter]?.states ?? []}
          search={search}
          matter={matter}
          sort={sort}
          onSort={(order) => desk.set({ sort: order })}
          onOpen={(row) => desk.set({ openId: row.id })}
        />
      </main>
      {chosen.length > 0 && (
        <BatchForm paths={chosen} onCertify={(m) => void certify(m)} onCancel={() => setChosen([])} />
      )}
      {openId !== null && (
        <Details
          id={openId}
          onClose={() => desk.set({ openId: null })}
          onSaveEvidence={(ids) => void saveEvidence({ ids })}
          onSaveCertificate={(row) => void saveCertificate(row)}
        />
      )}
      {verifying && <VerifyDialog dropped={verifying} onClose={() => desk.set({ verifying: null })} />}
      {verifyingSet && (
        <VerifySetDialog
          dropped={verifyingSet}
          onClose={() => desk.set({ verifyingSet: null, setProgress: null })}
        />
      )}
      {settingsOpen && <Settings onClose={() => desk.set({ settingsOpen: false })} />}
      {confirmingRemoval && (
        <RemoveChosenDialog
          onRemove={() => void removeChosen()}
          onKeep={() => desk.set({ confirmingRemoval: false })}
        />
      )}
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
