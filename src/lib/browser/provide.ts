// The browser host's part in the app's start: it gives the state layer the page's transport to the
// REST API and its own controls, so the UI, the state and the bridge never import the host.
import { provideHostControls } from '../state/host-status.svelte';
import { provideTransport } from '../state/transport';
import { apiFetch, displayableUrl } from './api';
import { LEDGER_CHANNEL } from './protocol';
import { applyUpdate, keepData, startHostStatus } from './status';

export function provideBrowserHost(): void {
  provideTransport({ fetch: apiFetch, displayableUrl, ledgerChannel: LEDGER_CHANNEL });
  provideHostControls({ start: startHostStatus, applyUpdate, keepData });
}
