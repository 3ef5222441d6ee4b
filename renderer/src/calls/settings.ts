import type { EvidenceDeskBridge } from '../../../preload/bridge';
import { ask, bridge } from '../bridge';

type InputOf<Name extends keyof EvidenceDeskBridge> = Parameters<EvidenceDeskBridge[Name]>[0];

/** Settings' calls: each answers or throws a BridgeError that Settings says beside its fields. */
export const saveProfile = (input: InputOf<'saveProfile'>) => ask(bridge().saveProfile(input));
export const switchToProfile = (id: string) => ask(bridge().useProfile({ id }));
export const testConnection = (input: InputOf<'testConnection'>) => ask(bridge().testConnection(input));
export const savePreferences = (preferences: InputOf<'setPreferences'>) =>
  ask(bridge().setPreferences(preferences));
/** The person trusts the service's new log key (the banner, after comparing it). */
export const acceptLogKey = () => ask(bridge().acceptLogKey({}));
