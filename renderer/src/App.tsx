import { useEffect, useRef, useState } from 'react';
import { bridge, call } from './bridge';
import { ConnectionBanner, ConnectionIndicator, DemoBanner, ProgressBars } from './components/Banners';
import type { BatchMetadata } from './components/BatchForm';
import { BatchForm } from './components/BatchForm';
import { CertificationList } from './components/CertificationList';
import { Details } from './components/Details';
import { Settings } from './components/Settings';
import { store, useView } from './store';
import type { LocalState, PathProblem } from './types';

const FILTERS: [string, LocalState[]][] = [
  ['All', []],
  ['Waiting', ['queued', 'submitting', 'pending']],
  ['Anchored', ['anchored']],
  ['Failed', ['failed']],
];

export function App() {
  const [chosen, setChosen] = useState<string[]>([]);
  const [filter, setFilter] = useState(0);
  const [search, setSearch] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [notice, setNotice] = useState<{ text: string; problems: PathProblem[] } | null>(null);
  const [dragging, setDragging] = useState(false);
  const counts = useView((s) => s.status?.counts);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  useEffect(() => store.start(), []);
  useEffect(
    () =>
      bridge().onCommand((payload) => {
        const command = payload as { kind: string; paths?: string[]; path?: string };
        if (command.kind === 'add-paths' && command.paths) setChosen(command.paths);
        if (command.kind === 'open-settings') setSettingsOpen(true);
        if (command.kind === 'verify-path' && command.path) void verify(command.path);
      }),
    [],
  );

  const verify = async (path: string) => {
    try {
      const result = await call<{ certifications: { check: { message: string } }[] }>(
        bridge().verifyFile({ path }),
      );
      const text = result.certifications.length
        ? result.certifications.map((c) => c.check.message).join(' ')
        : 'No certification of this exact file is on record here.';
      setNotice({ text, problems: [] });
    } catch (error) {
      setNotice({ text: (error as Error).message, problems: [] });
    }
  };

  const pathsOf = (files: FileList | null) =>
    Array.from(files ?? [])
      .map((file) => bridge().pathForFile(file))
      .filter(Boolean);

  const certify = async (metadata: BatchMetadata) => {
    const paths = chosen;
    setChosen([]);
    const answer = await bridge().certify({ paths, metadata });
    if (!answer.ok) return setNotice({ text: answer.error.message, problems: [] });
    const { queued, problems } = answer.value as { queued: number; problems: PathProblem[] };
    setNotice({
      text: `${queued} file${queued === 1 ? '' : 's'} queued for certification.${problems.length ? ` ${problems.length} could not be certified:` : ''}`,
      problems,
    });
  };

  return (
    <div
      className={`app ${dragging ? 'dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => event.currentTarget === event.target && setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        const paths = pathsOf(event.dataTransfer.files);
        if (paths.length) setChosen(paths);
      }}
      data-testid="drop-zone"
    >
      <header className="top">
        <h1>Evidence Desk</h1>
        <ConnectionIndicator />
        <button type="button" onClick={() => setSettingsOpen(true)}>
          Settings
        </button>
      </header>
      <DemoBanner />
      <ConnectionBanner />
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
        {notice && (
          <div className="notice" role="status">
            <p>{notice.text}</p>
            {notice.problems.length > 0 && (
              <ul>
                {notice.problems.map((p) => (
                  <li key={p.path}>
                    <strong>{p.path.split(/[\\/]/).at(-1)}</strong>: {p.message}
                  </li>
                ))}
              </ul>
            )}
            <button type="button" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </div>
        )}
        <div className="filters">
          <div role="group" aria-label="Show">
            {FILTERS.map(([label, states], index) => (
              <button
                key={label}
                type="button"
                aria-pressed={filter === index}
                onClick={() => setFilter(index)}
              >
                {label}
                {counts &&
                  ` (${(states.length ? states : (Object.keys(counts) as LocalState[])).reduce((n, s) => n + counts[s], 0)})`}
              </button>
            ))}
          </div>
          <label>
            Search{' '}
            <input
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="File name or hash"
            />
          </label>
        </div>
        <CertificationList
          states={(FILTERS[filter] as [string, LocalState[]])[1]}
          search={search}
          onOpen={(row) => setOpenId(row.id)}
        />
      </main>
      {chosen.length > 0 && (
        <BatchForm count={chosen.length} onCertify={(m) => void certify(m)} onCancel={() => setChosen([])} />
      )}
      {openId !== null && <Details id={openId} onClose={() => setOpenId(null)} />}
      {settingsOpen && <Settings onClose={() => setSettingsOpen(false)} />}
    </div>
  );
}
