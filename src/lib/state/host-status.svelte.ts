// The page's view of its ledger host, as reactive state the UI reads: who answers the API, the
// chain head, the worker's build, a waiting update, persistence. The browser host fills it and
// provides its controls at start (src/hooks.client.ts); the root layout starts it.
import type { DevStatus } from '../client/types';
import { providedAtStart } from './provided-at-start';

/** What the controlling worker says about itself (the browser host's hello message). */
export interface WorkerHello {
  v: number;
  appVersion: string;
  dbSchemaVersion: number;
}

export const hostStatus = $state({
  /** Who answers `<origin>/sandbox/v1` for this page right now. */
  api: 'starting' as 'starting' | 'service-worker' | 'page' | 'unavailable',
  /** The controlling worker's hello, when one controls the page. */
  worker: null as WorkerHello | null,
  /** Page and worker differ (version, schema or protocol): what to tell the person. */
  notice: null as string | null,
  /** A new version waits; `applyUpdate()` switches to it. */
  updateReady: false,
  persisted: null as boolean | null,
  chain: null as DevStatus | null,
  error: null as string | null
});

export interface HostControls {
  /** Start once: fetch fallback, worker registration, channel listening. Resolves to the stop. */
  start(): Promise<() => void>;
  /** Switch to the waiting version (the page reloads once it controls). */
  applyUpdate(): void;
  /** Ask the browser to keep this site's data (a person's explicit request). */
  keepData(): Promise<void>;
}

const controls = providedAtStart<HostControls>('ledger host controls');
const hostControls = controls.get;

export const provideHostControls = controls.provide;

export function startHost(): Promise<() => void> {
  return hostControls().start();
}

export function applyUpdate(): void {
  hostControls().applyUpdate();
}

export function keepData(): Promise<void> {
  return hostControls().keepData();
}
