import { z } from 'zod';
import type { CallInput, CallName, CallResult, EventName } from '../../preload/contract';
import { CALLS } from '../../preload/contract';
import type { EvidenceCore } from '../core';
import { isDeskError } from '../errors';
import type { Logger } from '../logging/logger';
import type { CertificationRow } from '../store/certifications-store';

/** A row as the list shows it: the heavy raw answer and evidence stay behind until details are asked for. */
export type RowView = Omit<CertificationRow, 'rawResponse' | 'evidence'>;

export const toRowView = ({ rawResponse: _raw, evidence: _evidence, ...view }: CertificationRow): RowView =>
  view;

type Implementations = {
  [N in CallName]: (input: z.output<(typeof CALLS)[N]>) => Promise<unknown> | unknown;
};

function implementations(core: EvidenceCore): Implementations {
  return {
    certify: async ({ paths, metadata }) => {
      const report = await core.certify(paths, metadata);
      return { queued: report.queued.length, problems: report.problems };
    },
    // The total comes with each page, so the list never guesses its length from other counts.
    list: (query) => ({ rows: core.list(query).map(toRowView), total: core.count(query) }),
    details: ({ id }) => core.details(id),
    retry: ({ id }) => core.retry(id),
    remove: ({ id }) => core.remove(id),
    tryNow: () => core.tryNow(),
    status: () => core.status(),
    verifyFile: ({ path }) => core.verifyFile(path),
    settings: async () => {
      const active = core.activeProfileId;
      const profile = core.readProfile(active) ?? null;
      // Whether each secret is set — never the secret.
      return { active, profile, secretsSet: profile ? await core.secretsSet(active) : null };
    },
    saveProfile: ({ profile, secrets }) => core.saveProfile(profile, secrets),
    useProfile: ({ id }) => core.useProfile(id),
    testConnection: async ({ id }) => {
      const result = await core.testConnection(id);
      return result.ok
        ? {
            ok: true,
            message: `Connected: the service issued a token (valid ${result.value.expiresInSeconds} s).`,
          }
        : { ok: false, message: result.message };
    },
  };
}

export type IpcInvoke = <N extends CallName>(
  name: N,
  input: CallInput<N> | unknown,
) => Promise<CallResult<unknown>>;

/**
 * The one wrapper every IPC call goes through in main: the name must be in the contract, the
 * input must parse against its schema (handlers never see `unknown`), and every outcome is a
 * `{ ok, value }` or `{ ok: false, error: { code, message } }` — never a thrown error or a stack.
 */
export function createIpcInvoke(core: EvidenceCore, log: Logger): IpcInvoke {
  const table = implementations(core);
  return async (name, input) => {
    if (!Object.hasOwn(CALLS, name)) return failure('unknown_call', 'That action does not exist.');
    const parsed = CALLS[name].safeParse(input);
    if (!parsed.success) return failure('invalid_input', z.prettifyError(parsed.error));
    try {
      const implementation = table[name] as (input: unknown) => Promise<unknown> | unknown;
      return { ok: true, value: (await implementation(parsed.data)) ?? null };
    } catch (error) {
      if (isDeskError(error)) return failure(error.code, error.message);
      if (error instanceof z.ZodError) return failure('invalid_input', z.prettifyError(error));
      log.log('error', 'ipc.call_failed', { call: name, error: (error as Error).message });
      return failure('internal_error', 'Something went wrong in Evidence Desk; the details are in its log.');
    }
  };
}

/** Forwards core events to a sender (the window's webContents), shaped for the renderer. */
export function forwardCoreEvents(
  core: EvidenceCore,
  send: (event: EventName, payload: unknown) => void,
): () => void {
  const onRow = (row: CertificationRow) => send('row', toRowView(row));
  const onConnectivity = (status: unknown) => send('connectivity', status);
  const onProgress = (progress: unknown) => send('progress', progress);
  core.on('row', onRow);
  core.on('connectivity', onConnectivity);
  core.on('progress', onProgress);
  return () => {
    core.off('row', onRow);
    core.off('connectivity', onConnectivity);
    core.off('progress', onProgress);
  };
}

const failure = (code: string, message: string): CallResult<never> => ({
  ok: false,
  error: { code, message },
});
