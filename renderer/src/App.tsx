import { useRef, useState } from 'react';
import type { BatchMetadata } from '../../protocol/certification-request';
import { ask, bridge, messageOf } from './bridge';
import type { LocalState } from '../../protocol/states';
import {
  ConnectionBanner,
  ConnectionIndicator,
  DemoBanner,
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

export function App() {
  const [chosen, setChosen] = useState<string[]>([]);
  const [filter, setFilter] = useState(0);
  const [search, setSearch] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [notice, setNotice] = useState<NoticeContent | null>(null);
  // The verify dialog, with what was dropped or chosen for it (null: closed).
  const [verifying, setVerifying] = useState<string[] | null>(null);
  const counts = useStatus().data?.counts;
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const saveEvidence = async (selection: { ids?: number[]; states?: LocalState[]; search?: string }) => {
    setNotice({ text: 'Saving the evidence…', problems: [] });
    try {
      const saved = await ask(bridge().exportEvidence(selection));
      setNotice(
        saved && {
          text: `Saved the evidence of ${saved.certifications} certification${saved.certifications === 1 ? '' : 's'} in ${saved.dir}: a certificate and a receipt for each, the register, and verify.html for whoever receives it.`,
          problems: [],
        },
      );
    } catch (error) {
      setNotice({ text: messageOf(error), problems: [] });
    }
  };

  useShellCommands({
    'add-paths': ({ paths }) => setChosen(paths),
    'open-settings': () => setSettingsOpen(true),
    'verify-path': ({ path }) => setVerifying([path]),
  });

  const certify = async (metadata: BatchMetadata) => {
    const paths = chosen;
    setChosen([]);
    try {
      const { queued, problems } = await ask(bridge().certify({ paths, metadata }));
      setNotice({
        text: `${queued} file${queued === 1 ? '' : 's'} queued for certification.${problems.length ? ` ${problems.length} could not be certified:` : ''}`,
        problems,
      });
    } catch (error) {
      setNotice({ text: messageOf(error), problems: [] });
    }
  };

  return (
    <DropZone onPaths={(paths) => (verifying ? setVerifying(paths) : setChosen(paths))}>
      <header className="top">
        <h1>Evidence Desk</h1>
        <ConnectionIndicator />
        <button type="button" onClick={() => setVerifying([])}>
          Verify…
        </button>
        <button type="button" onClick={() => setSettingsOpen(true)}>
          Settings
        </button>
      </header>
      <DemoBanner />
      <ConnectionBanner onOpenSettings={() => setSettingsOpen(true)} />
      <LogKeyChangeBanner />
      <main>
        <section className="intake" aria-label="Add documents">
          <p>
            Drop documents or folders anywhere in this window. Only their fingerprints leave this computer.
          </p>
          <button type="button" className="primary" onClick={() => fileInput.current?.click()}>
            Add files…
          </button>
          <button type="button" onClick={() => folderInput.current?.click()}>
            Add folder…
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
          onSaveEvidence={() =>
            void saveEvidence({ states: [...(FILTERS[filter]?.states ?? [])], search: search || undefined })
          }
        />
        <CertificationList
          states={FILTERS[filter]?.states ?? []}
          search={search}
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
