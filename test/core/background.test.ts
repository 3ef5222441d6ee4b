import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EvidenceCore } from '../../main/core';
import type { Notice } from '../../main/desktop-policy/background';
import {
  ANCHORED_QUIET_MS,
  NotificationPlanner,
  closeKeepsRunning,
  quitQuestion,
  trayModel,
  windowTitle,
} from '../../main/desktop-policy/background';
import { translatorFor } from '../../protocol/locales';
import { emptyCounts } from '../../protocol/states';
import { runCli } from '../support/cli';
import type { TestWorkspace } from '../support/core';
import { METADATA, openCore, workspace } from '../support/core';
import { englishOf } from '../support/english';

// The tray, the close and quit decisions and the notifications are decided in main/desktop-policy/ (plain
// Node) and drawn by main/electron/main.ts, which cannot run here (no Electron binary). These
// tests feed them a real core on a real queue and embedded sandbox; only the drawing is left out.
const en = translatorFor('en');
const de = translatorFor('de');
const QUIET = { profileId: 'sandbox', removed: [], profileSwitched: false, external: false };

let ws: TestWorkspace;
const cores: EvidenceCore[] = [];
const open = async (options: Parameters<typeof openCore>[1] = {}) => {
  const core = await openCore(ws.dataDir, options);
  cores.push(core);
  return core;
};

afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.close()));
  ws?.cleanup();
});

describe('the app in the background', () => {
  it('keeps running in the tray while work waits, says how much, and asks before quitting with it', async () => {
    ws = workspace('evidence-background-');
    const core = await open({ sync: false });
    await core.certify(ws.files({ 'a.pdf': 'a', 'b.pdf': 'b' }), METADATA);
    const waiting = core.status().counts;

    const tray = trayModel(waiting, false, en);
    expect(tray.tooltip).toBe('Evidence Desk — 2 certifications waiting');
    expect(tray.title).toBe('2');
    expect(tray.items.map((item) => [item.label, item.enabled])).toEqual([
      ['Open Evidence Desk', true],
      ['Sync now', true],
      ['Pause sending', true],
      ['Quit Evidence Desk', true],
    ]);
    expect(windowTitle(waiting, en)).toBe('Evidence Desk — 2 waiting');
    expect(closeKeepsRunning(waiting)).toBe(true);
    expect(quitQuestion(waiting, en)).toMatchObject({
      message: '2 certifications have not been anchored yet.',
      buttons: ['Quit anyway', 'Keep running'],
      defaultId: 1,
      cancelId: 1,
    });
    // The same, in German.
    expect(trayModel(waiting, true, de)).toMatchObject({
      tooltip: 'Evidence Desk — Senden pausiert',
      items: [
        { label: 'Evidence Desk öffnen' },
        { label: 'Jetzt senden', enabled: false },
        { label: 'Senden fortsetzen' },
        { label: 'Evidence Desk beenden' },
      ],
    });
    expect(quitQuestion(waiting, de)?.message).toBe('2 Zertifizierungen sind noch nicht verankert.');
    // Watched folders: counted quietly while all is well; one not watched is said first, and in the tooltip.
    expect(trayModel(waiting, false, en, { folders: 2, notWatching: 0 }).items[0]).toEqual({
      action: 'open',
      label: 'Watching 2 folders',
      enabled: false,
    });
    const warned = trayModel(waiting, false, de, { folders: 2, notWatching: 1 });
    expect(warned.tooltip).toBe(
      'Evidence Desk — 2 Zertifizierungen warten — 1 überwachter Ordner wird nicht überwacht',
    );
    expect(warned.items[0]).toEqual({
      action: 'open',
      label: '1 überwachter Ordner wird nicht überwacht',
      enabled: true,
    });

    core.sync.start();
    await core.sync.waitUntilSettled(core.queue.list({ limit: 10 }).map((row) => row.id));
    const settled = core.status().counts;
    expect(closeKeepsRunning(settled)).toBe(false);
    expect(quitQuestion(settled, en)).toBeNull();
    expect(trayModel(settled, false, en)).toMatchObject({ tooltip: 'Evidence Desk', title: '' });
  }, 30_000);

  it('pauses sending from the tray: certifying still queues, nothing is sent until resumed', async () => {
    ws = workspace('evidence-background-');
    const core = await open();
    await core.sync.pause();
    expect(core.status().connectivity.state).toBe('paused');
    const report = await core.certify(ws.files({ 'held.pdf': 'held' }), METADATA);
    // An unpaused core claims a queued row in the very tick it is written (the engine is woken
    // synchronously), so by now its timeline would already say "submitting": no sleep needed.
    expect(core.queue.details(report.queued[0]!).history.map((entry) => entry.state)).toEqual(['queued']);
    core.sync.resume();
    const [row] = await core.sync.waitUntilSettled([report.queued[0]!], 20_000);
    expect(row?.state).toBe('anchored');
  }, 30_000);

  it('notifies once when a batch is anchored and at once for each failure, with no window involved', async () => {
    ws = workspace('evidence-background-');
    const core = await open();
    const shown: Notice[] = [];
    const planner = new NotificationPlanner(
      () => en,
      (ids) => core.queue.rows(ids),
      (notice) => shown.push(notice),
    );
    const stop = core.onChanges((changes) => planner.onChanges(changes));
    const report = await core.certify(
      ws.files({ 'one.pdf': '1', 'two.pdf': '2', 'three.pdf': '3' }),
      METADATA,
    );
    await core.sync.waitUntilSettled(report.queued);
    await expect
      .poll(() => shown, { timeout: 5000 })
      .toEqual([{ title: 'Certifications anchored', body: '3 certifications are anchored and verifiable.' }]);
    stop();
    planner.dispose();

    // A service that fails every certification at anchoring: each failure is said, by name.
    const failing = workspace('evidence-background-failing-');
    try {
      const other = await openCore(failing.dataDir, {
        embeddedSandbox: { batchIntervalMs: 200, faults: { anchorFailureRate: 1 } },
      });
      cores.push(other);
      const failures: Notice[] = [];
      const failPlanner = new NotificationPlanner(
        () => de,
        (ids) => other.queue.rows(ids),
        (notice) => failures.push(notice),
      );
      other.onChanges((changes) => failPlanner.onChanges(changes));
      const failed = await other.certify(failing.files({ 'Vertrag.pdf': 'v' }), METADATA);
      await other.sync.waitUntilSettled(failed.queued);
      await expect.poll(() => failures.length, { timeout: 5000 }).toBe(1);
      expect(failures[0]).toMatchObject({ title: 'Eine Zertifizierung ist fehlgeschlagen' });
      expect(failures[0]?.body).toMatch(/^Vertrag\.pdf: /);
      failPlanner.dispose();
    } finally {
      failing.cleanup();
    }
  }, 40_000);

  it('counts each certification once in the anchored notice, however often it changes after anchoring', () => {
    vi.useFakeTimers();
    try {
      const shown: Notice[] = [];
      const planner = new NotificationPlanner(
        () => en,
        () => [],
        (notice) => shown.push(notice),
      );
      const counts = { ...emptyCounts(), anchored: 2 };
      const change = (id: number) => ({ ...QUIET, counts, changed: [{ id, state: 'anchored' as const }] });
      // Anchored, then its verification written, then the second one anchored.
      for (const id of [1, 1, 2]) planner.onChanges(change(id));
      vi.advanceTimersByTime(ANCHORED_QUIET_MS);
      // Its independent time confirmed minutes later: already said.
      planner.onChanges(change(1));
      vi.advanceTimersByTime(ANCHORED_QUIET_MS);
      expect(shown).toEqual([
        { title: 'Certifications anchored', body: '2 certifications are anchored and verifiable.' },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says the queue is being sent by the command line while `evidence-desk` holds it', async () => {
    ws = workspace('evidence-background-');
    const [doc] = ws.files({ 'by-cli.pdf': 'sent by the command line' });
    const cli = runCli(ws.dataDir, [
      'certify',
      doc!,
      '--event-type',
      'DOCUMENT_SIGNED',
      '--asset-type',
      'document',
      '--wait',
    ]);
    // The CLI takes the lease as soon as it has queued; the app, sending from then on, stands by and says who sends.
    const app = await open({ sync: false });
    await expect.poll(() => app.queue.list({ limit: 1 }).length, { timeout: 20_000, interval: 50 }).toBe(1);
    app.sync.start();
    await expect
      .poll(() => app.status().connectivity, { timeout: 20_000, interval: 100 })
      .toMatchObject({ state: 'standby', sentBy: 'command-line' });
    expect(englishOf(app.status().connectivity.message)).toMatch(/being sent by the command line/);
    expect((await cli).code).toBe(0);
  }, 40_000);
});
