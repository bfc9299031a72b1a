// The real @unique-nft/sdk 0.7.7's generic `extrinsic.*` with positional `args` in polkadot.js form,
// as its typings (`args: any[]`) and the real service's docs have them.
import type Sdk from '@unique-nft/sdk';
import type { TxBuildBody } from '@unique-nft/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, http, isError, startSdkHost } from './support';

let host: RunningHost;
let alice: Sdk;

beforeAll(async () => ({ host, alice } = await startSdkHost()));
afterAll(() => host?.stop());

/**
 * Positional args holding objects: 0.7.7's typings spell `args` as `arrayNumberRecordStringAny[]`
 * but define that type as `string | number` only (the name says records too), so objects need this.
 */
const chainArgs = (...args: unknown[]) => args as TxBuildBody['args'];

/** A string as UTF-16 code units, as the SDK sends a collection's name, description and prefix. */
const units = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

/** The id of a collection created by createCollectionEx with positional args. */
async function createCollection(data: Record<string, unknown>): Promise<number> {
  const result = await alice.extrinsic.submitWaitResult({ address: ALICE, section: 'unique', method: 'createCollectionEx', args: chainArgs(data) });
  expect(isError(result)).toBe(false);
  return (result.parsed as { collectionId: number }).collectionId;
}

describe('extrinsic.build / submitWaitResult with positional args', () => {
  it('balances.transferKeepAlive [dest, amount as a string]: build, fee and submit', async () => {
    const fresh = '5CVMZoNZmsUV7xYp4gLB1GrRJm8RNw8ffwEDAfnrtev1azJn';
    const body = { address: ALICE, section: 'balances', method: 'transferKeepAlive', args: [fresh, '1000000000000000000'] };
    const built = await alice.extrinsic.build(body);
    expect(built.signerPayloadJSON.method).toMatch(/^0x1e0300/);
    expect(Number((await alice.extrinsic.getFee(body)).amount)).toBeGreaterThan(0);
    expect(isError(await alice.extrinsic.submitWaitResult(body))).toBe(false);
    expect((await alice.balance.get({ address: fresh })).freeBalance.raw).toBe('1000000000000000000');
  });

  it('unique.createCollectionEx [data] then unique.createItem [id, {Substrate}, {NFT: {properties}}]', async () => {
    const collectionId = await createCollection({
      mode: 'NFT',
      name: units('Positional'),
      description: units('args as a list'),
      tokenPrefix: units('POS'),
      tokenPropertyPermissions: [{ key: 'a', permission: { mutable: true, collectionAdmin: true, tokenOwner: false } }]
    });
    expect(await alice.collection.get({ collectionId })).toMatchObject({ name: 'Positional', description: 'args as a list', tokenPrefix: 'POS', mode: 'NFT' });
    const args = chainArgs(collectionId, { Substrate: BOB }, { NFT: { properties: [{ key: 'a', value: 'b' }] } });
    expect(isError(await alice.extrinsic.submitWaitResult({ address: ALICE, section: 'unique', method: 'createItem', args }))).toBe(false);
    expect((await alice.token.owner({ collectionId, tokenId: 1 })).owner).toBe(BOB);
    expect((await alice.token.properties({ collectionId, tokenId: 1 })).properties).toContainEqual(expect.objectContaining({ key: 'a', value: 'b' }));
  });

  it('unique.createMultipleItemsEx [id, {Fungible: {account: amount as a string}}]', async () => {
    const collectionId = await createCollection({ mode: { Fungible: 2 }, name: units('Gold'), description: units('d'), tokenPrefix: units('GLD') });
    const data = { Fungible: { [ALICE]: '100000000000000000000', [JSON.stringify({ Substrate: BOB })]: '5' } };
    expect(isError(await alice.extrinsic.submitWaitResult({ address: ALICE, section: 'unique', method: 'createMultipleItemsEx', args: chainArgs(collectionId, data) }))).toBe(false);
    expect(await alice.fungible.getBalance({ collectionId, address: ALICE })).toMatchObject({ raw: '100000000000000000000' });
    expect(await alice.fungible.getBalance({ collectionId, address: BOB })).toMatchObject({ raw: '5' });
  });

  it('answers a wrong count or an unreadable argument with a 400 naming it', async () => {
    const build = (args: unknown[]) => http(host, 'POST', '/extrinsic/build', { address: ALICE, section: 'unique', method: 'createItem', args });
    const short = await build([1, { Substrate: BOB }]);
    expect(short.status).toBe(400);
    expect(short.body.error).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('args has 2 value(s), unique.createItem takes 3 (collectionId, owner, data)') });
    const bad = await build([1, { Substrate: BOB }, { Fungible: { value: 'x'.repeat(1000) } }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('args[2].Fungible.value must be a whole number');
    expect(bad.body.error.message.length).toBeLessThan(600);
  });
});
