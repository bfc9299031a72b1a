import { describe, expect, it } from 'vitest';
import { ETHEREUM_ZERO } from '../constants';
import type { RuleSetName } from '../rules';
import { ALICE, BOB, CHARLIE, DAVE, TestChain } from '../testing/harness';
import { allow, getToken, mint, names, putCollection } from './fixtures';

const RULES: RuleSetName[] = ['spec', 'unique'];
const tx = (to: string, tokenId = 1, value = 1n) => ({ to, collectionId: 1, tokenId, value });
const txFrom = (from: string, to: string, tokenId = 1, value = 1n) => ({ from, to, collectionId: 1, tokenId, value });

describe.each(RULES)('unique.transfer (%s)', (rules) => {
  async function setup(overrides: Parameters<typeof putCollection>[1] = {}) {
    const chain = new TestChain(rules);
    await putCollection(chain, { admins: [DAVE], ...overrides });
    await mint(chain, 1, BOB);
    return chain;
  }

  it('moves the token from the signer and emits Transfer', async () => {
    const chain = await setup();
    const events = await chain.ok(BOB, 'unique.transfer', tx(CHARLIE));
    expect(events).toEqual([{ section: 'common', method: 'Transfer', data: { collectionId: 1, tokenId: 1, from: BOB, to: CHARLIE, amount: 1 } }]);
    expect((await getToken(chain, 1, 1))?.owner).toBe(CHARLIE);
  });

  it('only the direct owner may transfer: collection owner and admins get NoPermission', async () => {
    const chain = await setup();
    expect(await chain.error(CHARLIE, 'unique.transfer', tx(CHARLIE))).toBe('common.NoPermission');
    expect(await chain.error(ALICE, 'unique.transfer', tx(CHARLIE))).toBe('common.NoPermission');
    expect(await chain.error(DAVE, 'unique.transfer', tx(CHARLIE))).toBe('common.NoPermission');
  });

  it('amount > 1 is NonfungibleItemsHaveNoAmount; amount 0 only probes existence and ownership', async () => {
    const chain = await setup();
    expect(await chain.error(BOB, 'unique.transfer', tx(CHARLIE, 1, 2n))).toBe('nonfungible.NonfungibleItemsHaveNoAmount');
    expect(await chain.ok(BOB, 'unique.transfer', tx(CHARLIE, 1, 0n))).toEqual([]);
    expect((await getToken(chain, 1, 1))?.owner).toBe(BOB);
    expect(await chain.error(BOB, 'unique.transfer', tx(CHARLIE, 7, 0n))).toBe('common.TokenNotFound');
    expect(await chain.error(CHARLIE, 'unique.transfer', tx(CHARLIE, 1, 0n))).toBe('common.NoPermission');
  });

  it('TransferNotAllowed comes first when transfers are disabled (even for a missing token)', async () => {
    const chain = await setup({ limits: { transfersEnabled: false } });
    expect(await chain.error(BOB, 'unique.transfer', tx(CHARLIE))).toBe('common.TransferNotAllowed');
    expect(await chain.error(BOB, 'unique.transfer', tx(CHARLIE, 42))).toBe('common.TransferNotAllowed');
  });

  it('TokenNotFound for a missing token', async () => {
    const chain = await setup();
    expect(await chain.error(BOB, 'unique.transfer', tx(CHARLIE, 42))).toBe('common.TokenNotFound');
  });

  it('with access AllowList both owner and recipient must be listed (no exemption for the owner)', async () => {
    const chain = await setup({ permissions: { access: 'AllowList' } });
    expect(await chain.error(BOB, 'unique.transfer', tx(CHARLIE))).toBe('common.AddressNotInAllowlist');
    await allow(chain, 1, BOB);
    expect(await chain.error(BOB, 'unique.transfer', tx(CHARLIE))).toBe('common.AddressNotInAllowlist');
    await allow(chain, 1, CHARLIE);
    await chain.ok(BOB, 'unique.transfer', tx(CHARLIE));
  });

  it('AddressIsZero for the Ethereum zero address (any letter case)', async () => {
    const chain = await setup();
    expect(await chain.error(BOB, 'unique.transfer', tx(ETHEREUM_ZERO))).toBe('common.AddressIsZero');
  });

  it('checks accountTokenOwnershipLimit on the recipient, but not for a transfer to oneself', async () => {
    const chain = await setup({ limits: { accountTokenOwnershipLimit: 1 } });
    await mint(chain, 1, CHARLIE);
    expect(await chain.error(BOB, 'unique.transfer', tx(CHARLIE))).toBe('common.AccountTokenLimitExceeded');
    await chain.ok(BOB, 'unique.transfer', tx(BOB));
    await chain.ok(BOB, 'unique.transfer', tx(DAVE));
  });

  it('clears the approval, emitting Approved(…, 0) before Transfer', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.approve', { spender: CHARLIE, collectionId: 1, tokenId: 1, amount: 1n });
    const events = await chain.ok(BOB, 'unique.transfer', tx(DAVE));
    expect(names(events)).toEqual(['common.Approved', 'common.Transfer']);
    expect(events[0].data).toEqual({ collectionId: 1, tokenId: 1, owner: BOB, spender: CHARLIE, amount: 0 });
    expect((await getToken(chain, 1, 1))?.approved).toBeUndefined();
    // The old spender lost its right.
    expect(await chain.error(CHARLIE, 'unique.transferFrom', txFrom(DAVE, CHARLIE))).toBe('common.ApprovedValueTooLow');
  });

  it('goes to the ReFungible rules in a ReFungible collection: a missing token is TokenValueTooLow', async () => {
    const chain = await setup();
    await putCollection(chain, { id: 2, mode: 'ReFungible' });
    expect(await chain.error(BOB, 'unique.transfer', { to: CHARLIE, collectionId: 2, tokenId: 1, value: 1n })).toBe('common.TokenValueTooLow');
  });
});

describe.each(RULES)('unique.transferFrom (%s)', (rules) => {
  async function setup(overrides: Parameters<typeof putCollection>[1] = {}) {
    const chain = new TestChain(rules);
    await putCollection(chain, { admins: [DAVE], ...overrides });
    await mint(chain, 1, BOB);
    return chain;
  }

  it('from == signer behaves as a transfer', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.transferFrom', txFrom(BOB, CHARLIE));
    expect((await getToken(chain, 1, 1))?.owner).toBe(CHARLIE);
  });

  it('an approved spender can transfer once; the approval is consumed', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.approve', { spender: CHARLIE, collectionId: 1, tokenId: 1, amount: 1n });
    const events = await chain.ok(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE));
    expect(names(events)).toEqual(['common.Approved', 'common.Transfer']);
    expect(events[1].data).toEqual({ collectionId: 1, tokenId: 1, from: BOB, to: CHARLIE, amount: 1 });
    await chain.ok(CHARLIE, 'unique.transfer', tx(BOB));
    expect(await chain.error(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE))).toBe('common.ApprovedValueTooLow');
  });

  it('ApprovedValueTooLow without approval, also for a missing token (allowance before existence)', async () => {
    const chain = await setup();
    expect(await chain.error(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE))).toBe('common.ApprovedValueTooLow');
    expect(await chain.error(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE, 9))).toBe('common.ApprovedValueTooLow');
    expect(await chain.error(BOB, 'unique.transferFrom', txFrom(BOB, CHARLIE, 9))).toBe('common.TokenNotFound');
  });

  it('from must be the direct owner (NoPermission)', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.approve', { spender: CHARLIE, collectionId: 1, tokenId: 1, amount: 1n });
    expect(await chain.error(CHARLIE, 'unique.transferFrom', txFrom(ALICE, CHARLIE))).toBe('common.NoPermission');
  });

  it('with access AllowList the spender must be listed first', async () => {
    const chain = await setup({ permissions: { access: 'AllowList' } });
    await allow(chain, 1, BOB);
    expect(await chain.error(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE))).toBe('common.AddressNotInAllowlist');
  });

  it('amount 0 runs only the allowance check (not even transfersEnabled)', async () => {
    const chain = await setup({ limits: { transfersEnabled: false } });
    expect(await chain.error(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE, 1, 0n))).toBe('common.ApprovedValueTooLow');
    await chain.ok(BOB, 'unique.approve', { spender: CHARLIE, collectionId: 1, tokenId: 1, amount: 1n });
    expect(await chain.ok(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE, 1, 0n))).toEqual([]);
    expect(await chain.error(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE, 1, 1n))).toBe('common.TransferNotAllowed');
    expect(await chain.error(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE, 1, 5n))).toBe('nonfungible.NonfungibleItemsHaveNoAmount');
  });

  it('an explicit ownerCanTransfer = true lets owner and admins move others\' tokens', async () => {
    const chain = await setup({ limits: { ownerCanTransfer: true } });
    await chain.ok(ALICE, 'unique.transferFrom', txFrom(BOB, CHARLIE));
    await chain.ok(DAVE, 'unique.transferFrom', txFrom(CHARLIE, BOB));
    expect((await getToken(chain, 1, 1))?.owner).toBe(BOB);
  });

  it('an explicit ownerCanTransfer = false forbids it', async () => {
    const chain = await setup({ limits: { ownerCanTransfer: false } });
    expect(await chain.error(ALICE, 'unique.transferFrom', txFrom(BOB, CHARLIE))).toBe('common.ApprovedValueTooLow');
    expect(await chain.error(DAVE, 'unique.transferFrom', txFrom(BOB, CHARLIE))).toBe('common.ApprovedValueTooLow');
  });
});

describe('ownerCanTransfer default differs by rule set', () => {
  it('spec: owner and admins may transferFrom others\' tokens by default', async () => {
    const chain = new TestChain('spec');
    await putCollection(chain, { admins: [DAVE] });
    await mint(chain, 1, BOB);
    await chain.ok(ALICE, 'unique.transferFrom', txFrom(BOB, CHARLIE));
    await chain.ok(DAVE, 'unique.transferFrom', txFrom(CHARLIE, DAVE));
    expect((await getToken(chain, 1, 1))?.owner).toBe(DAVE);
  });

  it('unique: they may not (ApprovedValueTooLow)', async () => {
    const chain = new TestChain('unique');
    await putCollection(chain, { admins: [DAVE] });
    await mint(chain, 1, BOB);
    expect(await chain.error(ALICE, 'unique.transferFrom', txFrom(BOB, CHARLIE))).toBe('common.ApprovedValueTooLow');
    expect(await chain.error(DAVE, 'unique.transferFrom', txFrom(BOB, CHARLIE))).toBe('common.ApprovedValueTooLow');
  });
});

describe.each(RULES)('unique.approve (%s)', (rules) => {
  const approve = (spender: string, amount = 1n, tokenId = 1) => ({ spender, collectionId: 1, tokenId, amount });
  async function setup(overrides: Parameters<typeof putCollection>[1] = {}) {
    const chain = new TestChain(rules);
    await putCollection(chain, { admins: [DAVE], ...overrides });
    await mint(chain, 1, BOB);
    return chain;
  }

  it('sets a single spender, replaces it, and revokes with amount 0', async () => {
    const chain = await setup();
    const first = await chain.ok(BOB, 'unique.approve', approve(CHARLIE));
    expect(first).toEqual([{ section: 'common', method: 'Approved', data: { collectionId: 1, tokenId: 1, owner: BOB, spender: CHARLIE, amount: 1 } }]);
    expect((await getToken(chain, 1, 1))?.approved).toBe(CHARLIE);
    expect(await chain.ok(BOB, 'unique.approve', approve(CHARLIE))).toEqual([]);
    const replaced = await chain.ok(BOB, 'unique.approve', approve(DAVE));
    expect(replaced.map((e) => [e.data.spender, e.data.amount])).toEqual([
      [CHARLIE, 0],
      [DAVE, 1]
    ]);
    // The replaced spender lost its right.
    expect(await chain.error(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE))).toBe('common.ApprovedValueTooLow');
    const revoked = await chain.ok(BOB, 'unique.approve', approve(DAVE, 0n));
    expect(revoked.map((e) => [e.data.spender, e.data.amount])).toEqual([[DAVE, 0]]);
    expect((await getToken(chain, 1, 1))?.approved).toBeUndefined();
    expect(await chain.ok(BOB, 'unique.approve', approve(DAVE, 0n))).toEqual([]);
  });

  it('errors: amount, missing token, zero address, non-owner', async () => {
    const chain = await setup();
    expect(await chain.error(BOB, 'unique.approve', approve(CHARLIE, 2n))).toBe('nonfungible.NonfungibleItemsHaveNoAmount');
    expect(await chain.error(BOB, 'unique.approve', approve(CHARLIE, 1n, 5))).toBe('common.TokenNotFound');
    expect(await chain.error(BOB, 'unique.approve', approve(ETHEREUM_ZERO))).toBe('common.AddressIsZero');
    expect(await chain.error(CHARLIE, 'unique.approve', approve(CHARLIE))).toBe('common.CantApproveMoreThanOwned');
    expect(await chain.error(CHARLIE, 'unique.approve', approve(CHARLIE, 0n))).toBe('common.CantApproveMoreThanOwned');
  });

  it('with access AllowList the approver and the spender must be listed', async () => {
    const chain = await setup({ permissions: { access: 'AllowList' } });
    expect(await chain.error(BOB, 'unique.approve', approve(CHARLIE))).toBe('common.AddressNotInAllowlist');
    await allow(chain, 1, BOB);
    expect(await chain.error(BOB, 'unique.approve', approve(CHARLIE))).toBe('common.AddressNotInAllowlist');
    await allow(chain, 1, CHARLIE);
    await chain.ok(BOB, 'unique.approve', approve(CHARLIE));
  });

  it('collection owner/admin approving on another\'s token: allowed only with ownerCanTransfer', async () => {
    const chain = await setup();
    const result = await chain.call(ALICE, 'unique.approve', approve(CHARLIE));
    if (rules === 'spec') {
      expect(result.ok).toBe(true);
      expect(result.events[0].data.owner).toBe(ALICE);
      await chain.ok(CHARLIE, 'unique.transferFrom', txFrom(BOB, CHARLIE));
    } else {
      expect(result.ok).toBe(false);
      expect(await chain.error(DAVE, 'unique.approve', approve(CHARLIE))).toBe('common.CantApproveMoreThanOwned');
    }
  });
});
