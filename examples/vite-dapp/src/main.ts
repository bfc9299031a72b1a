// A dapp on the Opalite sandbox: startSandbox() makes this app's own origin answer the Unique
// REST API from a ledger in this browser, and @unique-nft/sdk talks to it as to a real chain.
import Sdk from '@unique-nft/sdk';
import { Sr25519Account } from '@unique-nft/sdk/sr25519';
import { startSandbox } from 'opalite/browser';

const element = (id: string) => document.getElementById(id)!;
const status = element('status');
const mintButton = element('mint') as HTMLButtonElement;

function showStatus(state: 'ready' | 'busy' | 'error', text: string): void {
  status.dataset.state = state;
  status.textContent = text;
}

function listItem(testId: string, text: string): HTMLLIElement {
  const item = document.createElement('li');
  item.dataset.testid = testId;
  item.textContent = text;
  return item;
}

async function main(): Promise<void> {
  // Registers /opalite-sandbox-worker.js (copied by `opalite init public/`), resolves once it
  // controls this page: `${location.origin}/sandbox/v1`.
  const baseUrl = await startSandbox();
  element('base-url').textContent = baseUrl;

  // //Alice is a dev account: the sandbox's genesis gives it a balance.
  const account = Sr25519Account.fromUri('//Alice');
  const address = account.address;
  element('address').textContent = address;
  // Blocks are instant here: poll the extrinsic status often (the SDK's default is every 5 s).
  const sdk = new Sdk({ baseUrl, signer: account.signer, waitBetweenStatusRequestsInMs: 200 });

  async function showLedger(): Promise<void> {
    // `/collections/list` (newest first) is an Opalite extension: the SDK has no call for an owner's collections.
    const response = await fetch(`${baseUrl}/collections/list?owner=${address}`);
    const { collections } = (await response.json()) as { collections: { id: number; name: string }[] };
    const collectionItems: HTMLLIElement[] = [];
    const tokenItems: HTMLLIElement[] = [];
    for (const collection of collections) {
      collectionItems.push(listItem('collection', `${collection.id}: ${collection.name}`));
      const { tokens } = await sdk.token.accountTokens({ address, collectionId: collection.id });
      for (const ref of tokens) {
        const token = await sdk.token.get(ref);
        const name = (token as { name?: { _?: string } }).name?._ ?? '';
        tokenItems.push(listItem('token', `collection ${collection.id} token ${ref.tokenId}: ${name}`));
      }
    }
    element('collections').replaceChildren(...collectionItems);
    element('tokens').replaceChildren(...tokenItems);
  }

  mintButton.addEventListener('click', async () => {
    mintButton.disabled = true;
    showStatus('busy', 'creating a collection and minting…');
    try {
      const created = await sdk.collection.create.submitWaitResult({ address, name: 'Vite dapp', description: 'Made in the sandbox', tokenPrefix: 'VD' });
      const collectionId = created.parsed!.collectionId;
      const minted = await sdk.token.create.submitWaitResult({ address, collectionId, data: { name: { _: 'First token' } } } as never);
      await showLedger();
      showStatus('ready', `minted token ${minted.parsed!.tokenId} in collection ${collectionId}`);
    } catch (error) {
      showStatus('error', String(error));
    } finally {
      mintButton.disabled = false;
    }
  });

  await showLedger();
  mintButton.disabled = false;
  showStatus('ready', 'ready');
}

main().catch((error: unknown) => showStatus('error', error instanceof Error ? error.message : String(error)));
