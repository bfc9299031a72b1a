import { it } from 'vitest';
import { ALICE, sdkFor, startTestHost } from './support';
it('smoke', async () => {
  const host = await startTestHost();
  const sdk = sdkFor(host);
  try {
    const c = await sdk.collection.createV2.submitWaitResult({ address: ALICE, name: 'V2', description: 'd', symbol: 'V2', cover_image: { url: 'https://x/c.png' }, potential_attributes: [{ trait_type: 'color', values: ['red'] }] } as any);
    console.log(JSON.stringify(c.parsed), (c as any).isError);
    const id = c.parsed!.collectionId;
    console.log(JSON.stringify(await sdk.collection.getV2({ collectionId: id })));
    console.log(JSON.stringify(await sdk.collection.get({ collectionId: id })));
    const t = await sdk.token.createV2.submitWaitResult({ address: ALICE, collectionId: id, name: 'T', image: 'https://x/t.png', attributes: [{ trait_type: 'color', value: 'red' }], royalties: [{ address: ALICE, percent: 5 }] } as any);
    console.log(JSON.stringify(t.parsed), (t as any).isError, JSON.stringify((t as any).error));
    console.log(JSON.stringify(await sdk.token.getV2({ collectionId: id, tokenId: t.parsed!.tokenId })));
    console.log(JSON.stringify(await sdk.token.get({ collectionId: id, tokenId: t.parsed!.tokenId })));
  } finally { await host.stop(); }
}, 60000);
