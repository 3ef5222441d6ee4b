import { z } from 'zod';
import type { CallName } from './channels';
import { batchMetadataSchema } from '../protocol/certification-request';
import { LOCAL_STATES } from '../main/store/states';
import { PROFILE_KINDS } from '../main/config/profiles';

/**
 * Every call and event that crosses IPC, written once. Main validates each input against its
 * schema; the preload builds `window.evidenceDesk` from the names; the renderer imports types only.
 * Adding a call means adding one entry here and one handler in main/ipc/handlers.ts.
 */
const id = z.number().int().positive();
const secretValue = z.string().min(1).max(4096);

export const CALLS = {
  certify: z.object({
    paths: z.array(z.string().min(1).max(4096)).min(1).max(100_000),
    metadata: batchMetadataSchema,
  }),
  list: z.object({
    states: z.array(z.enum(LOCAL_STATES)).max(LOCAL_STATES.length).optional(),
    search: z.string().max(256).optional(),
    limit: z.number().int().min(1).max(1000),
    offset: z.number().int().min(0).optional(),
  }),
  details: z.object({ id }),
  retry: z.object({ id }),
  remove: z.object({ id }),
  tryNow: z.object({}),
  status: z.object({}),
  verifyFile: z.object({ path: z.string().min(1).max(4096) }),
  settings: z.object({}),
  saveProfile: z.object({
    profile: z.object({
      id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/),
      kind: z.enum(PROFILE_KINDS).exclude(['embedded']),
      baseUrl: z.string().max(2048),
      tokenUrl: z.string().max(2048),
      clientId: z.string().max(256),
      apiKey: z.string().max(256).optional(),
      signRequests: z.boolean(),
    }),
    // Typed into masked fields and sent once, straight to the keychain; never sent back.
    secrets: z.object({
      client_secret: secretValue.optional(),
      api_secret: secretValue.optional(),
      hmac_key: secretValue.optional(),
    }),
  }),
  useProfile: z.object({ id: z.string().min(1).max(40) }),
  testConnection: z.object({ id: z.string().min(1).max(40).optional() }),
} as const satisfies Record<CallName, z.ZodType>;

export type CallInput<N extends CallName> = z.input<(typeof CALLS)[N]>;
export { CALL_NAMES, EVENTS, channelOf, eventChannelOf } from './channels';
export type { CallName, CallResult, EventName, ShellCommand } from './channels';
