// The bridge's ports in the real /connect window: this window and its opener, the consents in
// this origin's localStorage, the person's wallet, the sign dialog (sign-payload.ts) and this
// origin's own sandbox, through the page's fetch (service worker or in-page host).
import { apiFetch } from '../state/transport';
import { RestClient } from '../client/client';
import { session } from '../state/session.svelte';
import { SANDBOX_PATH } from '../state/settings.svelte';
import type { BridgePorts } from './bridge.svelte';
import { AppConsents, watchConsents } from './consent';
import { signFailureOf, signForApp, signRawForApp } from './sign-payload';

export function browserBridgePorts(): BridgePorts {
  const vault = () => session.wallet.vault;
  return {
    host: {
      opener: (window.opener as Window | null) ?? null,
      listen(onMessage, onHide, onShown) {
        const onVisible = () => document.visibilityState === 'visible' && onShown();
        window.addEventListener('message', onMessage);
        window.addEventListener('pagehide', onHide);
        window.addEventListener('focus', onShown);
        document.addEventListener('visibilitychange', onVisible);
        return () => {
          window.removeEventListener('message', onMessage);
          window.removeEventListener('pagehide', onHide);
          window.removeEventListener('focus', onShown);
          document.removeEventListener('visibilitychange', onVisible);
        };
      },
      focus: () => window.focus(),
      close: () => window.close()
    },
    consents: new AppConsents(),
    watchConsents,
    wallet: {
      list: async () => (await vault().list()).map(({ address, name, type }) => ({ address, name, type })),
      subscribe: (onChange) => vault().subscribe(onChange)
    },
    signer: { signPayload: signForApp, signRaw: signRawForApp, failureOf: signFailureOf },
    fetchLedger: apiFetch,
    origin: location.origin,
    async genesisHash() {
      const chain = await new RestClient({ baseUrl: `${location.origin}${SANDBOX_PATH}`, fetch: apiFetch }).chainProperties();
      return chain.genesisHash ?? null;
    }
  };
}
