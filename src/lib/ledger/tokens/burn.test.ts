import { describe, expect, it } from 'vitest';
import type { RuleSetName } from '../rules';
import { ALICE, BOB, CHARLIE, DAVE, TestChain } from '../testing/harness';
import { addr, allow, getCollection, getToken, mint, names, putCollection } from './fixtures';

const RULES: RuleSetName[] = ['spec', 'unique'];
const burn = (tokenId = 1, value = 1n) => ({ collectionId: 1, tokenId, value });
const burnFrom = (from: string, tokenId = 1, value = 1n) => ({ collectionId: 1, from, tokenId, value });

describe.each(RULES)('unique.burnItem (%s)', (rules) => {
  async function setup(overrides: Parameters<typeof putCollection>[1] = {}) {
    const chain = new TestChain(rules);
    await putCollection(chain, { admins: [DAVE], ...overrides });
    await mint(chain, 1, BOB);
    return chain;
  }

  it('removes the token, counts it burnt (tokensMinted unchanged) and never reuses its id', async () => {
    const chain = await setup();
    const events = await chain.ok(BOB, 'unique.burnItem', burn());
    expect(events).toEqual([{ section: 'common', method: 'ItemDestroyed', data: { collectionId: 1, tokenId: 1, owner: BOB, amount: 1 } }]);
    expect(await getToken(chain, 1, 1)).toBeUndefined();
    expect(await getCollection(chain, 1)).toMatchObject({ tokensMinted: 1, tokensBurnt: 1 });
    expect(await mint(chain, 1, BOB)).toBe(2);
  });

  it('emits Approved(…, 0) first when the token had an approved spender', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.approve', { spender: CHARLIE, collectionId: 1, tokenId: 1, amount: 1n });
    const events = await chain.ok(BOB, 'unique.burnItem', burn());
    expect(names(events)).toEqual(['common.Approved', 'common.ItemDestroyed']);
    expect(events[0].data).toEqual({ collectionId: 1, tokenId: 1, owner: BOB, spender: CHARLIE, amount: 0 });
  });

  it('only the direct owner may burnItem: owner and admins get NoPermission, whatever ownerCanTransfer', async () => {
    const chain = await setup({ limits: { ownerCanTransfer: true } });
    expect(await chain.error(ALICE, 'unique.burnItem', burn())).toBe('common.NoPermission');
    expect(await chain.error(DAVE, 'unique.burnItem', burn())).toBe('common.NoPermission');
    expect(await chain.error(CHARLIE, 'unique.burnItem', burn())).toBe('common.NoPermission');
  });

  it('TokenNotFound, amount rules, value 0 probe', async () => {
    const chain = await setup();
    expect(await chain.error(BOB, 'unique.burnItem', burn(9))).toBe('common.TokenNotFound');
    expect(await chain.error(BOB, 'unique.burnItem', burn(1, 2n))).toBe('nonfungible.NonfungibleItemsHaveNoAmount');
    expect(await chain.ok(BOB, 'unique.burnItem', burn(1, 0n))).toEqual([]);
    expect(await getToken(chain, 1, 1)).toBeDefined();
    expect(await chain.error(CHARLIE, 'unique.burnItem', burn(1, 0n))).toBe('common.NoPermission');
  });

  it('with access AllowList the owner must be listed', async () => {
    const chain = await setup({ permissions: { access: 'AllowList' } });
    expect(await chain.error(BOB, 'unique.burnItem', burn())).toBe('common.AddressNotInAllowlist');
    await allow(chain, 1, BOB);
    await chain.ok(BOB, 'unique.burnItem', burn());
  });

  it('is not blocked by transfersEnabled = false', async () => {
    const chain = await setup({ limits: { transfersEnabled: false } });
    await chain.ok(BOB, 'unique.burnItem', burn());
  });

  it('cannot burn a token with children (CantBurnNftWithChildren)', async () => {
    const chain = await setup({ permissions: { nesting: { tokenOwner: true } } });
    await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: BOB, properties: [] }); // 2
    await chain.ok(BOB, 'unique.transfer', { to: addr(1, 1), collectionId: 1, tokenId: 2, value: 1n });
    expect(await chain.error(BOB, 'unique.burnItem', burn())).toBe('nonfungible.CantBurnNftWithChildren');
    // Unnest, then burning works.
    await chain.ok(BOB, 'unique.transferFrom', { from: addr(1, 1), to: BOB, collectionId: 1, tokenId: 2, value: 1n });
    await chain.ok(BOB, 'unique.burnItem', burn());
  });
});

describe.each(RULES)('unique.burnFrom (%s)', (rules) => {
  async function setup(overrides: Parameters<typeof putCollection>[1] = {}) {
    const chain = new TestChain(rules);
    await putCollection(chain, { admins: [DAVE], permissions: { nesting: { tokenOwner: true } }, ...overrides });
    await mint(chain, 1, BOB);
    return chain;
  }

  it('from == signer burns the own token', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.burnFrom', burnFrom(BOB));
    expect(await getToken(chain, 1, 1)).toBeUndefined();
  });

  it('an approved spender can burn; others get ApprovedValueTooLow (also for a missing token)', async () => {
    const chain = await setup();
    expect(await chain.error(CHARLIE, 'unique.burnFrom', burnFrom(BOB))).toBe('common.ApprovedValueTooLow');
    expect(await chain.error(CHARLIE, 'unique.burnFrom', burnFrom(BOB, 9))).toBe('common.ApprovedValueTooLow');
    expect(await chain.error(BOB, 'unique.burnFrom', burnFrom(BOB, 9))).toBe('common.TokenNotFound');
    await chain.ok(BOB, 'unique.approve', { spender: CHARLIE, collectionId: 1, tokenId: 1, amount: 1n });
    const events = await chain.ok(CHARLIE, 'unique.burnFrom', burnFrom(BOB));
    expect(names(events)).toEqual(['common.Approved', 'common.ItemDestroyed']);
    expect(events[1].data).toEqual({ collectionId: 1, tokenId: 1, owner: BOB, amount: 1 });
  });

  it('the topmost owner can burn a nested token with from = the parent address', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.transfer', { to: CHARLIE, collectionId: 1, tokenId: 1, value: 1n });
    await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: CHARLIE, properties: [] }); // 2
    await chain.ok(CHARLIE, 'unique.transfer', { to: addr(1, 1), collectionId: 1, tokenId: 2, value: 1n });
    expect((await getToken(chain, 1, 2))?.owner).toBe(addr(1, 1));
    expect(await chain.error(BOB, 'unique.burnFrom', burnFrom(addr(1, 1), 2))).toBe('common.ApprovedValueTooLow');
    const events = await chain.ok(CHARLIE, 'unique.burnFrom', burnFrom(addr(1, 1), 2));
    expect(events[0].data).toEqual({ collectionId: 1, tokenId: 2, owner: addr(1, 1), amount: 1 });
    expect(await chain.read((tx) => tx.childrenOf(1, 1))).toEqual([]);
    await chain.ok(CHARLIE, 'unique.burnItem', burn(1));
  });

  it('amount 0 only checks the allowance', async () => {
    const chain = await setup();
    expect(await chain.ok(BOB, 'unique.burnFrom', burnFrom(BOB, 9, 0n))).toEqual([]);
    expect(await chain.error(CHARLIE, 'unique.burnFrom', burnFrom(BOB, 1, 0n))).toBe('common.ApprovedValueTooLow');
  });
});

describe('burning others\' tokens as collection owner/admin differs by rule set', () => {
  it('spec: owner and admins can burnFrom (ownerCanTransfer defaults to true)', async () => {
    const chain = new TestChain('spec');
    await putCollection(chain, { admins: [DAVE] });
    await mint(chain, 1, BOB);
    await mint(chain, 1, CHARLIE);
    await chain.ok(ALICE, 'unique.burnFrom', burnFrom(BOB, 1));
    await chain.ok(DAVE, 'unique.burnFrom', burnFrom(CHARLIE, 2));
    expect(await getCollection(chain, 1)).toMatchObject({ tokensMinted: 2, tokensBurnt: 2 });
  });

  it('spec with ownerCanTransfer explicitly false: they cannot', async () => {
    const chain = new TestChain('spec');
    await putCollection(chain, { admins: [DAVE], limits: { ownerCanTransfer: false } });
    await mint(chain, 1, BOB);
    expect(await chain.error(ALICE, 'unique.burnFrom', burnFrom(BOB))).toBe('common.ApprovedValueTooLow');
  });

  it('unique: they cannot by default (ApprovedValueTooLow), but can with ownerCanTransfer = true', async () => {
    const chain = new TestChain('unique');
    await putCollection(chain, { admins: [DAVE] });
    await mint(chain, 1, BOB);
    expect(await chain.error(ALICE, 'unique.burnFrom', burnFrom(BOB))).toBe('common.ApprovedValueTooLow');
    expect(await chain.error(DAVE, 'unique.burnFrom', burnFrom(BOB))).toBe('common.ApprovedValueTooLow');
    await putCollection(chain, { id: 2, admins: [DAVE], limits: { ownerCanTransfer: true } });
    await mint(chain, 2, BOB);
    await chain.ok(DAVE, 'unique.burnFrom', { collectionId: 2, from: BOB, tokenId: 1, value: 1n });
  });
});
