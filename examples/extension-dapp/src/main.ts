// A dapp written against the polkadot{.js} extension's API (`accounts`, `signer`), with an
// Opalite wallet behind it. With the extension the app would start with
//
//   const [injected] = await web3Enable('Extension dapp'); // @polkadot/extension-dapp
//
// and with Opalite that one line is
//
//   const injected = await enableOpalite({ opaliteUrl, appName: 'Extension dapp' });
//
// Everything after it is the extension's API: `injected.accounts.subscribe(cb)` (the accounts
// the person shared with this page), `injected.signer.signPayload(payload)` and
// `injected.signer.signRaw({ address, data, type: 'bytes' })`. The signer has the shape
// @polkadot/api takes:
//
//   await api.tx.balances.transferKeepAlive(to, amount).signAndSend(from, { signer: injected.signer });
//
// Opalite signs only for its own sandbox chain, which has no RPC endpoint for @polkadot/api; so
// this page drives the same signer through the sandbox's REST API: Build → signPayload → submit.
import { OpaliteConnectError, enableOpalite, type InjectedAccount, type InjectedOpalite } from 'opalite/connect';

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = element<HTMLOutputElement>('status');
const connectButton = element<HTMLButtonElement>('connect');
const sendForm = element<HTMLFormElement>('send');
const sendButton = sendForm.querySelector('button') as HTMLButtonElement;
const signButton = element<HTMLButtonElement>('sign-message');
const fromSelect = element<HTMLSelectElement>('from');

let injected: InjectedOpalite | null = null;

// `?opalite=<url>` fills in the Opalite app's address.
const opaliteParam = new URLSearchParams(location.search).get('opalite');
if (opaliteParam) element<HTMLInputElement>('opalite-url').value = opaliteParam;

function showStatus(state: 'idle' | 'busy' | 'ready' | 'error', text: string): void {
  status.dataset.state = state;
  status.textContent = text;
}

function failure(error: unknown): string {
  return error instanceof OpaliteConnectError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
}

/** The accounts the person shared: listed, and offered as senders. */
function showAccounts(accounts: InjectedAccount[]): void {
  element('accounts').replaceChildren(
    ...accounts.map((account) => {
      const item = document.createElement('li');
      item.dataset.testid = 'account';
      item.textContent = `${account.name ?? 'Unnamed'} ${account.address}`;
      return item;
    })
  );
  fromSelect.replaceChildren(...accounts.map((account) => new Option(account.name ?? account.address, account.address)));
  sendButton.disabled = signButton.disabled = accounts.length === 0;
}

connectButton.addEventListener('click', async () => {
  // From the click: the browser opens the Opalite window only for one.
  showStatus('busy', 'waiting for Opalite…');
  try {
    injected = await enableOpalite({ opaliteUrl: element<HTMLInputElement>('opalite-url').value, appName: 'Extension dapp' });
  } catch (error) {
    showStatus('error', failure(error));
    return;
  }
  showStatus('ready', 'connected');
  // Called with the accounts now, then at every change (the person shares others in Opalite).
  injected.accounts.subscribe(showAccounts);
});

/** A JSON request to the sandbox REST API, through the Opalite window. */
async function rest(path: string, body?: unknown): Promise<any> {
  const { connection } = injected!;
  const response = await connection.fetch(`${connection.baseUrl}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${json?.error?.message ?? JSON.stringify(json)}`);
  return json;
}

sendForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!injected) return;
  sendButton.disabled = true;
  try {
    showStatus('busy', 'building the transfer…');
    const built = await rest('/balance/transfer?use=Build', {
      address: fromSelect.value,
      destination: element<HTMLInputElement>('to').value.trim(),
      amount: Number(element<HTMLInputElement>('amount').value)
    });
    showStatus('busy', 'asking you to sign in Opalite…');
    // What @polkadot/api's signAndSend calls: the extension's signPayload.
    const { signature } = await injected.signer.signPayload(built.signerPayloadJSON);
    const { hash } = await rest('/extrinsic/submit', { signerPayloadJSON: built.signerPayloadJSON, signature });
    showStatus('busy', `submitted ${hash}`);
    for (;;) {
      const state = await rest(`/extrinsic/status?hash=${hash}`);
      if (state.isError) throw new Error(`the chain refused it: ${JSON.stringify(state.error)}`);
      if (state.isCompleted) break;
      await new Promise((done) => setTimeout(done, 200));
    }
    showStatus('ready', `sent in ${hash}`);
  } catch (error) {
    showStatus('error', failure(error));
  } finally {
    sendButton.disabled = false;
  }
});

/** `text` as 0x hex (UTF-8), as dapps pass signRaw's data. */
function toHex(text: string): string {
  return `0x${[...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

signButton.addEventListener('click', async () => {
  if (!injected) return;
  showStatus('busy', 'asking you to sign the message in Opalite…');
  try {
    // Opalite signs it as <Bytes>…</Bytes>, as the extension does: never a transaction.
    const { signature } = await injected.signer.signRaw({ address: fromSelect.value, data: toHex(element<HTMLInputElement>('message').value), type: 'bytes' });
    element('signature').textContent = signature;
    showStatus('ready', 'message signed');
  } catch (error) {
    showStatus('error', failure(error));
  }
});
