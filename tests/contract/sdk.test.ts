// The real @unique-nft/sdk 0.7.7 client against the Node host, signing locally with sr25519:
// every operation it has a method for.
import type Sdk from '@unique-nft/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, CHARLIE, isError, sdkFor, startSdkHost } from './support';

let host: RunningHost;
let alice: Sdk;
let bob: Sdk;

beforeAll(async () => ({ host, alice, bob } = await startSdkHost()));
afterAll(() => host?.stop());

async function newCollection(extra: Record<string, unknown> = {}): Promise<number> {
  const result = await alice.collection.create.submitWaitResult({ address: ALICE, name: 'Test', description: 'Contract test', tokenPrefix: 'TST', ...extra } as never);
  expect(isError(result)).toBe(false);
  return result.parsed!.collectionId;
}

async function mint(collectionId: number, data: Record<string, unknown> = { name: { _: 'token' } }): Promise<number> {
  const result = await alice.token.create.submitWaitResult({ address: ALICE, collectionId, data } as never);
  expect(isError(result)).toBe(false);
  return result.parsed!.tokenId;
}

describe('common and balance', () => {
  it('reads chain properties and nonces', async () => {
    const props = await alice.common.chainProperties();
    expect(props).toMatchObject({ SS58Prefix: 42, decimals: 18, token: 'OPL' });
    expect(props.genesisHash).toMatch(/^0x[0-9a-f]{64}$/);
    const { nonce } = await alice.common.getNonce({ address: CHARLIE });
    expect(nonce).toBe(0);
  });

  it('transfers native tokens to a new account and shows the balance', async () => {
    const fresh = '5CVMZoNZmsUV7xYp4gLB1GrRJm8RNw8ffwEDAfnrtev1azJn';
    const result = await alice.balance.transfer.submitWaitResult({ address: ALICE, destination: fresh, amount: 12.5 } as never);
    expect(isError(result)).toBe(false);
    expect(result.parsed).toMatchObject({ from: ALICE, to: fresh });
    const balance = await alice.balance.get({ address: fresh });
    expect(balance.availableBalance.amount).toBe('12.5');
    expect(balance.freeBalance.raw).toBe('12500000000000000000');
  });
});

describe('collections', () => {
  it('creates a collection (about 2.1 units in all) and reads it back with its schema', async () => {
    const before = BigInt((await alice.balance.get({ address: ALICE })).freeBalance.raw);
    const fee = await alice.collection.create.getFee({ address: ALICE, name: 'Fee', description: 'd', tokenPrefix: 'F' } as never);
    const amount = Number(fee.fee.amount);
    expect(amount).toBeGreaterThanOrEqual(2);
    expect(amount).toBeLessThanOrEqual(2.5);
    const id = await newCollection({ limits: { tokenLimit: 10 }, permissions: { access: 'Normal', mintMode: true, nesting: { tokenOwner: true } } });
    const after = BigInt((await alice.balance.get({ address: ALICE })).freeBalance.raw);
    const spent = Number(before - after) / 1e18;
    expect(spent).toBeGreaterThan(2);
    expect(spent).toBeLessThan(2.5);
    const c = await alice.collection.get({ collectionId: id });
    expect(c).toMatchObject({ id, owner: ALICE, mode: 'NFT', name: 'Test', description: 'Contract test', tokenPrefix: 'TST' });
    expect(c.limits?.tokenLimit).toBe(10);
    expect(c.permissions).toMatchObject({ access: 'Normal', mintMode: true, nesting: { tokenOwner: true, collectionAdmin: false } });
    expect((c.schema as any)?.schemaName).toBe('unique');
  });

  it('sets, reads and deletes collection properties', async () => {
    const id = await newCollection();
    const set = await alice.collection.setProperties.submitWaitResult({ address: ALICE, collectionId: id, properties: [{ key: 'foo', value: 'bar' }] } as never);
    expect(set.parsed).toEqual({ collectionId: id, properties: [{ collectionId: id, propertyKey: 'foo' }] });
    const props = await alice.collection.properties({ collectionId: id });
    expect(props.properties).toContainEqual(expect.objectContaining({ key: 'foo', value: 'bar' }));
    const del = await alice.collection.deleteProperties.submitWaitResult({ address: ALICE, collectionId: id, propertyKeys: ['foo'] } as never);
    expect(del.parsed).toEqual({ properties: [{ collectionId: id, propertyKey: 'foo' }] });
    expect((await alice.collection.properties({ collectionId: id })).properties.find((p) => p.key === 'foo')).toBeUndefined();
  });

  it('sets limits and reads effective limits', async () => {
    const id = await newCollection();
    const limits = await alice.collection.getLimits({ collectionId: id });
    expect(limits.limits).toMatchObject({ tokenLimit: 4294967295, accountTokenOwnershipLimit: 100000000, ownerCanDestroy: true, transfersEnabled: true });
    const set = await alice.collection.setLimits.submitWaitResult({ address: ALICE, collectionId: id, limits: { tokenLimit: 3 } } as never);
    expect(isError(set)).toBe(false);
    expect((set.parsed as any).limits.tokenLimit).toBe(3);
    expect((await alice.collection.getLimits({ collectionId: id })).limits.tokenLimit).toBe(3);
  });

  it('sets permissions and token property permissions', async () => {
    const id = await newCollection();
    const perms = await alice.collection.setPermissions.submitWaitResult({ address: ALICE, collectionId: id, permissions: { access: 'AllowList', mintMode: true } } as never);
    expect(perms.parsed).toMatchObject({ collectionId: id });
    expect((await alice.collection.get({ collectionId: id })).permissions?.access).toBe('AllowList');
    const tpp = await alice.collection.setPropertyPermissions.submitWaitResult({
      address: ALICE,
      collectionId: id,
      propertyPermissions: [{ key: 'color', permission: { mutable: true, collectionAdmin: true, tokenOwner: true } }]
    } as never);
    expect(tpp.parsed).toEqual({ propertyPermissions: [{ collectionId: id, propertyKey: 'color' }] });
    const read = await alice.collection.propertyPermissions({ collectionId: id, propertyKeys: ['color'] } as never);
    expect(read.propertyPermissions).toEqual([{ key: 'color', permission: { mutable: true, collectionAdmin: true, tokenOwner: true } }]);
  });

  it('manages admins, the allow list, sponsorship, transfers flag, owner and destroy', async () => {
    const id = await newCollection();
    expect((await alice.collection.addAdmin.submitWaitResult({ address: ALICE, collectionId: id, newAdmin: BOB } as never)).parsed).toEqual({ collectionId: id, newAdmin: BOB });
    expect((await alice.collection.admins({ collectionId: id })).admins).toEqual([BOB]);
    expect((await alice.collection.removeAdmin.submitWaitResult({ address: ALICE, collectionId: id, admin: BOB } as never)).parsed).toEqual({ collectionId: id, admin: BOB });
    expect((await alice.collection.admins({ collectionId: id })).admins).toEqual([]);

    await alice.collection.addToAllowList.submitWaitResult({ address: ALICE, collectionId: id, newAdminId: CHARLIE } as never);
    expect((await alice.collection.allowList({ collectionId: id })).addresses).toEqual([CHARLIE]);
    expect((await alice.collection.allowed({ collectionId: id, account: CHARLIE } as never)).isAllowed).toBe(true);
    await alice.collection.removeFromAllowList.submitWaitResult({ address: ALICE, collectionId: id, addressToDelete: CHARLIE } as never);
    expect((await alice.collection.allowList({ collectionId: id })).addresses).toEqual([]);

    await alice.collection.setSponsorship.submitWaitResult({ address: ALICE, collectionId: id, newSponsor: BOB } as never);
    expect((await alice.collection.get({ collectionId: id })).sponsorship).toEqual({ address: BOB, isConfirmed: false });
    const confirmed = await bob.collection.confirmSponsorship.submitWaitResult({ address: BOB, collectionId: id } as never);
    expect(isError(confirmed)).toBe(false);
    expect((await alice.collection.get({ collectionId: id })).sponsorship).toEqual({ address: BOB, isConfirmed: true });
    await alice.collection.removeSponsorship.submitWaitResult({ address: ALICE, collectionId: id } as never);
    expect((await alice.collection.get({ collectionId: id })).sponsorship).toBeNull();

    expect((await alice.collection.setTransfersEnabled.submitWaitResult({ address: ALICE, collectionId: id, isEnabled: false } as never)).parsed).toMatchObject({ success: true });
    expect((await alice.collection.getLimits({ collectionId: id })).limits.transfersEnabled).toBe(false);

    const moved = await alice.collection.transfer.submitWaitResult({ address: ALICE, collectionId: id, to: BOB } as never);
    expect(moved.parsed).toEqual({ collectionId: id, owner: BOB });
    const destroyed = await bob.collection.destroy.submitWaitResult({ address: BOB, collectionId: id } as never);
    expect(destroyed.parsed).toMatchObject({ success: true });
    expect(await alice.collection.get({ collectionId: id })).toBeFalsy();
  });

  it('reports a chain error in the status for a signer without permission', async () => {
    const id = await newCollection();
    const result = await bob.collection.setLimits.submitWaitResult({ address: BOB, collectionId: id, limits: { tokenLimit: 5 } } as never);
    expect(isError(result)).toBe(true);
    expect(result.error).toMatchObject({ message: 'Signer is not Collection Owner', details: { section: 'common', name: 'NoPermission' } });
  });
});

describe('tokens', () => {
  it('mints one and many, reads tokens, supply and ids', async () => {
    const id = await newCollection();
    const tokenId = await mint(id, { name: { _: 'First' }, description: { _: 'A token' }, image: { ipfsCid: 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG' } });
    const token = await alice.token.get({ collectionId: id, tokenId });
    expect(token).toMatchObject({ collectionId: id, tokenId, owner: ALICE, name: { _: 'First' }, description: { _: 'A token' } });
    expect(token.image.fullUrl).toContain('QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG');

    const many = await alice.token.createMultiple.submitWaitResult({ address: ALICE, collectionId: id, tokens: [{ data: { name: { _: 'a' } } }, { data: { name: { _: 'b' } } }, { owner: BOB, data: {} }] } as never);
    expect(many.parsed!.map((t) => t.tokenId)).toEqual([2, 3, 4]);
    expect((await alice.token.owner({ collectionId: id, tokenId: 4 })).owner).toBe(BOB);
    expect((await alice.token.exists({ collectionId: id, tokenId: 4 })).isExists).toBe(true);
    expect((await alice.token.exists({ collectionId: id, tokenId: 99 })).isExists).toBe(false);
    expect((await alice.collection.lastTokenId({ collectionId: id })).tokenId).toBe(4);
    expect((await alice.collection.totalSupply({ collectionId: id })).totalSupply).toBe(4);
    expect((await alice.collection.tokens({ collectionId: id })).ids).toEqual([1, 2, 3, 4]);
    const mine = await alice.token.accountTokens({ address: BOB, collectionId: id });
    expect(mine.tokens).toEqual([{ collectionId: id, tokenId: 4 }]);
    expect((await alice.token.balance({ collectionId: id, tokenId: 4, address: BOB } as never)).amount).toBe(1);
  });

  it('sets, reads and deletes token properties', async () => {
    const id = await newCollection({ tokenPropertyPermissions: [{ key: 'level', permission: { mutable: true, collectionAdmin: true, tokenOwner: true } }] });
    const tokenId = await mint(id);
    const set = await alice.token.setProperties.submitWaitResult({ address: ALICE, collectionId: id, tokenId, properties: [{ key: 'level', value: '7' }] } as never);
    expect(set.parsed).toMatchObject({ properties: [{ propertyKey: 'level' }] });
    expect((await alice.token.properties({ collectionId: id, tokenId })).properties).toContainEqual(expect.objectContaining({ key: 'level', value: '7' }));
    const del = await alice.token.deleteProperties.submitWaitResult({ address: ALICE, collectionId: id, tokenId, propertyKeys: ['level'] } as never);
    expect(del.parsed).toMatchObject({ properties: [{ propertyKey: 'level' }] });
  });

  it('transfers, approves, transfers by allowance and burns', async () => {
    const id = await newCollection();
    const tokenId = await mint(id);
    const moved = await alice.token.transfer.submitWaitResult({ address: ALICE, collectionId: id, tokenId, to: BOB } as never);
    expect(moved.parsed).toMatchObject({ collectionId: id, tokenId, from: ALICE, to: BOB });
    const approved = await bob.token.approve.submitWaitResult({ address: BOB, spender: CHARLIE, collectionId: id, tokenId, isApprove: true } as never);
    expect(isError(approved)).toBe(false);
    expect((await alice.token.allowance({ collectionId: id, tokenId, from: BOB, to: CHARLIE } as never)).isAllowed).toBe(true);
    const charlie = sdkFor(host, '//Charlie');
    const byAllowance = await charlie.token.transfer.submitWaitResult({ address: CHARLIE, from: BOB, to: CHARLIE, collectionId: id, tokenId } as never);
    expect(isError(byAllowance)).toBe(false);
    expect((await alice.token.owner({ collectionId: id, tokenId })).owner).toBe(CHARLIE);
    const burned = await charlie.token.burn.submitWaitResult({ address: CHARLIE, collectionId: id, tokenId } as never);
    expect(burned.parsed).toMatchObject({ collectionId: id, tokenId });
    expect((await alice.token.exists({ collectionId: id, tokenId })).isExists).toBe(false);
  });

  it('nests, walks the bundle and unnests', async () => {
    const id = await newCollection({ permissions: { nesting: { tokenOwner: true } } });
    const parent = await mint(id);
    const child = await mint(id);
    const grandchild = await mint(id);
    expect((await alice.token.nest.submitWaitResult({ address: ALICE, parent: { collectionId: id, tokenId: parent }, nested: { collectionId: id, tokenId: child } } as never)).parsed).toMatchObject({ collectionId: id, tokenId: child });
    await alice.token.nest.submitWaitResult({ address: ALICE, parent: { collectionId: id, tokenId: child }, nested: { collectionId: id, tokenId: grandchild } } as never);
    expect((await alice.token.children({ collectionId: id, tokenId: parent })).children).toEqual([{ collectionId: id, tokenId: child }]);
    const p = await alice.token.parent({ collectionId: id, tokenId: grandchild });
    expect(p).toMatchObject({ collectionId: id, tokenId: child });
    expect((await alice.token.topmostOwner({ collectionId: id, tokenId: grandchild })).topmostOwner).toBe(ALICE);
    expect((await alice.token.isBundle({ collectionId: id, tokenId: grandchild })).isBundle).toBe(true);
    const bundle = await alice.token.getBundle({ collectionId: id, tokenId: grandchild });
    expect(bundle.tokenId).toBe(parent);
    expect(bundle.nestingChildTokens[0].tokenId).toBe(child);
    expect((bundle.nestingChildTokens[0] as any).nestingChildTokens[0].tokenId).toBe(grandchild);
    const unnested = await alice.token.unnest.submitWaitResult({ address: ALICE, nested: { collectionId: id, tokenId: grandchild } } as never);
    expect(isError(unnested)).toBe(false);
    expect((await alice.token.owner({ collectionId: id, tokenId: grandchild })).owner).toBe(ALICE);
  });

  it('refuses nesting without permission with the chain error', async () => {
    const id = await newCollection();
    const a = await mint(id);
    const b = await mint(id);
    const result = await alice.token.nest.submitWaitResult({ address: ALICE, parent: { collectionId: id, tokenId: a }, nested: { collectionId: id, tokenId: b } } as never);
    expect(isError(result)).toBe(true);
    expect((result.error as { details?: unknown } | undefined)?.details).toMatchObject({ name: 'UserIsNotAllowedToNest' });
  });
});

describe('extrinsics', () => {
  it('builds, signs locally, submits and reads the status', async () => {
    const id = await newCollection();
    const built = await alice.collection.setProperties.build({ address: ALICE, collectionId: id, properties: [{ key: 'k', value: 'v' }] } as never);
    expect(built.signerPayloadHex).toMatch(/^0x[0-9a-f]+$/);
    const signed = await alice.collection.setProperties.sign(built);
    expect(signed.signature).toMatch(/^0x01[0-9a-f]{128}$/);
    const { hash } = await alice.extrinsic.submit(signed);
    const status = await alice.extrinsic.status({ hash });
    expect(status).toMatchObject({ isCompleted: true, isError: false, hash });
    expect(status.parsed).toEqual({ collectionId: id, properties: [{ collectionId: id, propertyKey: 'k' }] });
    // extrinsic.get: the same extrinsic read from its block, by number and by hash.
    const number = Number(status.block.header.number);
    const inBlock = await alice.extrinsic.get({ blockHashOrNumber: number, extrinsicHash: hash });
    expect(inBlock).toMatchObject({ section: 'unique', method: 'setCollectionProperties', signer: ALICE, args: [id, [{ key: 'k', value: 'v' }]] });
    expect(inBlock.events).toEqual(status.events);
    expect(await alice.extrinsic.get({ blockHashOrNumber: status.block.hash, extrinsicHash: hash })).toEqual(inBlock);
  });
});
