import type { EvidenceDeskBridge } from '../../../preload/bridge';
import { ask, bridge } from '../bridge';

/** Verifying's calls: each answers or throws a BridgeError that its dialog says. */
export const verifyDocument = (input: Parameters<EvidenceDeskBridge['verifyDocument']>[0]) =>
  ask(bridge().verifyDocument(input));
export const verifySet = (input: Parameters<EvidenceDeskBridge['verifySet']>[0]) =>
  ask(bridge().verifySet(input));
export const saveSetReport = (format: 'csv' | 'pdf') => ask(bridge().saveSetReport({ format }));

/** A picked or dropped file's absolute path, through the preload (the renderer never reads files). */
export const pathForFile = (file: File): string => bridge().pathForFile(file);
