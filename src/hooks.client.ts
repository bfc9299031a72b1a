// The app's start, before any page or layout runs: the browser host provides the page's transport
// and its controls to the state layer (src/lib/state/transport.ts, host-status.svelte.ts).
import type { ClientInit } from '@sveltejs/kit';
import { provideBrowserHost } from '$lib/browser/provide';

export const init: ClientInit = () => {
  provideBrowserHost();
};
