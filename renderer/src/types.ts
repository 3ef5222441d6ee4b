// Shapes that cross the bridge, as the renderer sees them (types only: nothing from main runs here).
export type { RowView } from '../../main/ipc/handlers';
export type { CoreStatus } from '../../main/core';
export type { ConnectivityStatus } from '../../main/sync/sync-engine';
export type { IntakeProgress } from '../../main/intake/certify-paths';
export type { PathProblem } from '../../main/hashing/expand-paths';
export type { LocalState } from '../../main/store/states';
export type { HistoryEntry } from '../../main/store/certifications-store';
