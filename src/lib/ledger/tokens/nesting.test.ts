import { describe, expect, it } from 'vitest';
import { COLLECTION_ADDRESS_PREFIX } from '../constants';
import type { DispatchError } from '../errors';
import type { RuleSetName } from '../rules';
import { ALICE, BOB, CHARLIE, DAVE, TestChain } from '../testing/harness';
import type { Address } from '../types';
import { isCollectionAddress, parseNestingAddress, tokenNestingAddress } from './addresses';
import { addr, getToken, mint, putCollection } from './fixtures';
import { bundleRoot, bundleTree, isBundle, parentOf, parentWithAddress, topmostOwner, type BundleNode } from './nesting';

const RULES: RuleSetName[] = ['spec', 'unique'];
const nest = (collectionId: number, tokenId: number, to: Address) => ({ to, collectionId, tokenId, value: 1n });
const move = (collectionId: number, tokenId: number, from: Address, to: Address) => ({ from, to, collectionId, tokenId, value: 1n });

async function readError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as DispatchError;
    return `${err.section}.${err.errorName}`;
  }
  throw new Error('expected an error');
}

describe('nesting addresses', () => {
  it('encode prefix ‖ BE32 collection ‖ BE32 token, lower-case, and parse back any case', () => {
    expect(tokenNestingAddress(1, 2)).toBe('0xf8238ccfff8ed887463fd5e00000000100000002');
    expect(tokenNestingAddress(0xabcdef, 0xffffffff)).toBe('0xf8238ccfff8ed887463fd5e000abcdefffffffff');
    expect(parseNestingAddress('0xF8238CCFFF8ED887463FD5E00000000100000002')).toEqual({ collectionId: 1, tokenId: 2 });
    expect(parseNestingAddress(BOB)).toBeNull();
    expect(parseNestingAddress('0xf8238ccfff8ed887463fd5e0000000010000000')).toBeNull();
    expect(isCollectionAddress(COLLECTION_ADDRESS_PREFIX + '00000001')).toBe(true);
    expect(isCollectionAddress(tokenNestingAddress(1, 1))).toBe(false);
  });
});

describe.each(RULES)('nesting (%s)', (rules) => {
  /** Collection 1 (owner ALICE, admin DAVE) lets topmost owners nest; tokens 1 and 2 belong to BOB. */
  async function setup(nesting: { tokenOwner?: boolean; collectionAdmin?: boolean; restricted?: number[] | null } = { tokenOwner: true }) {
    const chain = new TestChain(rules);
    await putCollection(chain, { admins: [DAVE], permissions: { nesting } });
    await mint(chain, 1, BOB);
    await mint(chain, 1, BOB);
    return chain;
  }

  it('nests by a transfer to the parent address: parent fields, children index, Transfer event', async () => {
    const chain = await setup();
    const events = await chain.ok(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)));
    expect(events).toEqual([{ section: 'common', method: 'Transfer', data: { collectionId: 1, tokenId: 2, from: BOB, to: addr(1, 1), amount: 1 } }]);
    const child = await getToken(chain, 1, 2);
    expect(child).toMatchObject({ owner: addr(1, 1), parentCollectionId: 1, parentTokenId: 1 });
    expect(parentOf(child!)).toEqual({ collectionId: 1, tokenId: 1 });
    expect(parentWithAddress(child!)).toEqual({ collectionId: 1, tokenId: 1, address: addr(1, 1) });
    expect((await chain.read((tx) => tx.childrenOf(1, 1))).map((t) => t.tokenId)).toEqual([2]);
    expect(await chain.read((tx) => isBundle(tx, { collectionId: 1, tokenId: 1 }))).toBe(true);
    expect(await chain.read((tx) => isBundle(tx, { collectionId: 1, tokenId: 2 }))).toBe(true);
  });

  it('accepts a mixed-case parent address and stores the canonical one', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.transfer', nest(1, 2, addr(1, 1).toUpperCase().replace('0X', '0x')));
    expect((await getToken(chain, 1, 2))?.owner).toBe(addr(1, 1));
  });

  it('nesting disabled (both flags false): UserIsNotAllowedToNest, without checking the parent exists', async () => {
    const chain = await setup({});
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)))).toBe('common.UserIsNotAllowedToNest');
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, addr(1, 99)))).toBe('common.UserIsNotAllowedToNest');
  });

  it('takes the permission from the PARENT\'s collection', async () => {
    const chain = await setup({}); // collection 1: nesting disabled
    await putCollection(chain, { id: 2, permissions: { nesting: { tokenOwner: true } } });
    await mint(chain, 2, BOB);
    // A token of collection 1 under a token of collection 2: collection 2 allows it.
    await chain.ok(BOB, 'unique.transfer', nest(1, 1, addr(2, 1)));
    expect(await chain.read((tx) => tx.childrenOf(2, 1))).toMatchObject([{ collectionId: 1, tokenId: 1 }]);
    // A token of collection 2 under a token of collection 1: collection 1 forbids it.
    await mint(chain, 2, BOB);
    expect(await chain.error(BOB, 'unique.transfer', nest(2, 2, addr(1, 2)))).toBe('common.UserIsNotAllowedToNest');
  });

  it('tokenOwner flag: only the topmost owner of the parent may nest under it', async () => {
    const chain = await setup();
    await mint(chain, 1, CHARLIE); // 3
    const r = await chain.call(CHARLIE, 'unique.transfer', nest(1, 3, addr(1, 1)));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.errorName).toBe('UserIsNotAllowedToNest');
      expect(r.error.message).toMatch(/topmost owner/);
    }
    // Nor the collection owner, without the collectionAdmin flag.
    await mint(chain, 1, ALICE); // 4
    expect(await chain.error(ALICE, 'unique.transfer', nest(1, 4, addr(1, 1)))).toBe('common.UserIsNotAllowedToNest');
  });

  it('collectionAdmin flag: owner/admins of the parent\'s collection may nest their tokens under anyone\'s', async () => {
    const chain = await setup({ collectionAdmin: true });
    await mint(chain, 1, DAVE); // 3
    await chain.ok(DAVE, 'unique.transfer', nest(1, 3, addr(1, 1)));
    expect((await getToken(chain, 1, 3))?.owner).toBe(addr(1, 1));
    // BOB owns both tokens but is no admin.
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)))).toBe('common.UserIsNotAllowedToNest');
    // The admin branch checks the parent exists.
    await mint(chain, 1, DAVE); // 4
    expect(await chain.error(DAVE, 'unique.transfer', nest(1, 4, addr(1, 99)))).toBe('structure.TokenNotFound');
  });

  it('restricted list: only the listed collections may nest (an empty list forbids all, even the own one)', async () => {
    const chain = await setup({ tokenOwner: true, restricted: [] });
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)))).toBe('common.SourceCollectionIsNotAllowedToNest');
    // UserIsNotAllowedToNest is checked before the list.
    await mint(chain, 1, CHARLIE); // 3
    expect(await chain.error(CHARLIE, 'unique.transfer', nest(1, 3, addr(1, 1)))).toBe('common.UserIsNotAllowedToNest');

    const chain2 = await setup({ tokenOwner: true, restricted: [2] });
    await putCollection(chain2, { id: 2 });
    await mint(chain2, 2, BOB);
    await chain2.ok(BOB, 'unique.transfer', nest(2, 1, addr(1, 1)));
    const r = await chain2.call(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.errorName).toBe('SourceCollectionIsNotAllowedToNest');
      expect(r.error.message).toMatch(/collection 1 .*restricted to collections \[2\]/);
    }
  });

  it('CantNestTokenUnderCollection for a collection address (even of a missing collection)', async () => {
    const chain = await setup();
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, COLLECTION_ADDRESS_PREFIX + '00000001'))).toBe('structure.CantNestTokenUnderCollection');
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, COLLECTION_ADDRESS_PREFIX + '000000ff'))).toBe('structure.CantNestTokenUnderCollection');
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 1, owner: COLLECTION_ADDRESS_PREFIX + '00000001', properties: [] })).toBe(
      'structure.CantNestTokenUnderCollection'
    );
  });

  it('the parent collection must exist and be NFT; the parent token must exist', async () => {
    const chain = await setup();
    await putCollection(chain, { id: 2, mode: 'Fungible', permissions: { nesting: { tokenOwner: true } } });
    await putCollection(chain, { id: 3, mode: 'ReFungible', permissions: { nesting: { tokenOwner: true } } });
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, addr(9, 1)))).toBe('common.CollectionNotFound');
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, addr(2, 1)))).toBe('fungible.FungibleDisallowsNesting');
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, addr(3, 1)))).toBe('refungible.RefungibleDisallowsNesting');
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, addr(1, 99)))).toBe('structure.TokenNotFound');
  });

  it('detects cycles: a token under itself or under its own descendant (OuroborosDetected)', async () => {
    const chain = await setup();
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 1, addr(1, 1)))).toBe('structure.OuroborosDetected');
    await chain.ok(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)));
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 1, addr(1, 2)))).toBe('structure.OuroborosDetected');
    await mint(chain, 1, BOB); // 3
    await chain.ok(BOB, 'unique.transfer', nest(1, 3, addr(1, 2)));
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 1, addr(1, 3)))).toBe('structure.OuroborosDetected');
  });

  async function chainOfDepth(chain: TestChain, levels: number): Promise<void> {
    // Tokens 1..levels+1 of BOB; token k+1 nested under token k.
    for (let id = 3; id <= levels + 1; id++) await mint(chain, 1, BOB);
    for (let id = 2; id <= levels + 1; id++) await chain.ok(BOB, 'unique.transfer', nest(1, id, addr(1, id - 1)));
  }

  it('allows 5 levels below the root and fails the 6th with DepthLimit (transfer and mint)', async () => {
    const chain = await setup();
    await chainOfDepth(chain, 5); // token 6 is at depth 5
    expect(await chain.read((tx) => topmostOwner(tx, 1, 6))).toBe(BOB);
    await mint(chain, 1, BOB); // 7
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 7, addr(1, 6)))).toBe('structure.DepthLimit');
    // The walk up from token 6 runs out of budget before it reaches the owner.
    expect(await chain.error(ALICE, 'unique.createItem', { collectionId: 1, owner: addr(1, 6), properties: [] })).toBe('structure.DepthLimit');
    // Under depth 4 it still works.
    await chain.ok(BOB, 'unique.transfer', nest(1, 7, addr(1, 5)));
  });

  it('the collectionAdmin branch after a failed tokenOwner branch pays the walk twice', async () => {
    const chain = await setup({ tokenOwner: true, collectionAdmin: true });
    await chainOfDepth(chain, 2); // token 3 at depth 2: a walk from it costs 3
    await mint(chain, 1, DAVE); // 4
    // DAVE is no topmost owner: 3 units for the tokenOwner walk, 3 more for the admin walk.
    expect(await chain.error(DAVE, 'unique.transfer', nest(1, 4, addr(1, 3)))).toBe('structure.DepthLimit');
    // Under token 2 (depth 1) it is 2 + 2.
    await chain.ok(DAVE, 'unique.transfer', nest(1, 4, addr(1, 2)));
    // With the admin flag alone the walk is paid once.
    await chain.store.write(async (tx) => {
      const c = (await tx.get('collections', 1))!;
      await tx.put('collections', { ...c, permissions: { ...c.permissions, nesting: { tokenOwner: false, collectionAdmin: true, restricted: null } } });
    });
    await mint(chain, 1, DAVE); // 5
    await chain.ok(DAVE, 'unique.transfer', nest(1, 5, addr(1, 3)));
  });

  it('a nested token cannot be re-nested with transfer; transferFrom moves it between parents', async () => {
    const chain = await setup();
    await mint(chain, 1, BOB); // 3
    await chain.ok(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)));
    expect(await chain.error(BOB, 'unique.transfer', nest(1, 2, addr(1, 3)))).toBe('common.NoPermission');
    await chain.ok(BOB, 'unique.transferFrom', move(1, 2, addr(1, 1), addr(1, 3)));
    expect(await getToken(chain, 1, 2)).toMatchObject({ owner: addr(1, 3), parentCollectionId: 1, parentTokenId: 3 });
    expect(await chain.read((tx) => tx.childrenOf(1, 1))).toEqual([]);
  });

  it('unnest: the topmost owner takes the token out (to itself or anyone); others get ApprovedValueTooLow', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)));
    expect(await chain.error(CHARLIE, 'unique.transferFrom', move(1, 2, addr(1, 1), CHARLIE))).toBe('common.ApprovedValueTooLow');
    const events = await chain.ok(BOB, 'unique.transferFrom', move(1, 2, addr(1, 1), CHARLIE));
    expect(events[0].data).toEqual({ collectionId: 1, tokenId: 2, from: addr(1, 1), to: CHARLIE, amount: 1 });
    const token = await getToken(chain, 1, 2);
    expect(token).toEqual({ collectionId: 1, tokenId: 2, owner: CHARLIE, properties: [] });
    expect(await chain.read((tx) => isBundle(tx, { collectionId: 1, tokenId: 1 }))).toBe(false);
  });

  it('unnest works from the deepest level (the walk from a depth-4 parent fits the budget)', async () => {
    const chain = await setup();
    await chainOfDepth(chain, 5);
    await chain.ok(BOB, 'unique.transferFrom', move(1, 6, addr(1, 5), BOB));
    expect((await getToken(chain, 1, 6))?.owner).toBe(BOB);
  });

  it('unnest is blocked by transfersEnabled = false, minting into a token is not', async () => {
    const chain = await setup();
    await chain.ok(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)));
    await chain.store.write(async (tx) => {
      const c = (await tx.get('collections', 1))!;
      await tx.put('collections', { ...c, limits: { ...c.limits, transfersEnabled: false }, permissions: { ...c.permissions, nesting: { ...c.permissions.nesting, collectionAdmin: true } } });
    });
    expect(await chain.error(BOB, 'unique.transferFrom', move(1, 2, addr(1, 1), BOB))).toBe('common.TransferNotAllowed');
    await chain.ok(ALICE, 'unique.createItem', { collectionId: 1, owner: addr(1, 1), properties: [] });
  });

  it('transferring the parent moves the whole bundle; the topmost owner follows the root', async () => {
    const chain = await setup();
    await mint(chain, 1, BOB); // 3
    await chain.ok(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)));
    await chain.ok(BOB, 'unique.transfer', nest(1, 3, addr(1, 2)));
    expect(await chain.read((tx) => topmostOwner(tx, 1, 3))).toBe(BOB);
    await chain.ok(BOB, 'unique.transfer', { to: CHARLIE, collectionId: 1, tokenId: 1, value: 1n });
    expect(await getToken(chain, 1, 2)).toMatchObject({ owner: addr(1, 1), parentTokenId: 1 });
    expect(await getToken(chain, 1, 3)).toMatchObject({ owner: addr(1, 2), parentTokenId: 2 });
    expect(await chain.read((tx) => topmostOwner(tx, 1, 3))).toBe(CHARLIE);
    // The new root owner now controls the bundle; the old one does not.
    expect(await chain.error(BOB, 'unique.transferFrom', move(1, 3, addr(1, 2), BOB))).toBe('common.ApprovedValueTooLow');
    await chain.ok(CHARLIE, 'unique.transferFrom', move(1, 3, addr(1, 2), CHARLIE));
  });

  it('the topmost owner of a token at depth 5 cannot write token-owner properties (budget 5 per call)', async () => {
    const chain = new TestChain(rules);
    await putCollection(chain, { permissions: { nesting: { tokenOwner: true } }, tokenPropertyPermissions: { own: { mutable: true, tokenOwner: true } } });
    await mint(chain, 1, BOB);
    await mint(chain, 1, BOB);
    await chainOfDepth(chain, 5);
    expect(await chain.error(BOB, 'unique.setTokenProperties', { collectionId: 1, tokenId: 6, properties: [{ key: 'own', value: 'x' }] })).toBe('structure.DepthLimit');
    await chain.ok(BOB, 'unique.setTokenProperties', { collectionId: 1, tokenId: 5, properties: [{ key: 'own', value: 'x' }] });
  });
});

describe('bundle reads', () => {
  /**
   * Collection 1 token 1 (BOB) ─┬─ 1/2 ── 1/4
   *                             └─ 2/1
   */
  async function bundle() {
    const chain = new TestChain();
    await putCollection(chain, { permissions: { nesting: { tokenOwner: true } } });
    await putCollection(chain, { id: 2 });
    for (let i = 0; i < 4; i++) await mint(chain, 1, BOB);
    await mint(chain, 2, BOB);
    await chain.ok(BOB, 'unique.transfer', nest(2, 1, addr(1, 1)));
    await chain.ok(BOB, 'unique.transfer', nest(1, 2, addr(1, 1)));
    await chain.ok(BOB, 'unique.transfer', nest(1, 4, addr(1, 2)));
    return chain;
  }
  const shape = (node: BundleNode): unknown => ({ id: `${node.token.collectionId}/${node.token.tokenId}`, children: node.children.map(shape) });

  it('topmostOwner: the root owner, or structure.TokenNotFound for a missing token', async () => {
    const chain = await bundle();
    expect(await chain.read((tx) => topmostOwner(tx, 1, 4))).toBe(BOB);
    expect(await chain.read((tx) => topmostOwner(tx, 1, 3))).toBe(BOB);
    expect(await readError(chain.read((tx) => topmostOwner(tx, 1, 99)))).toBe('structure.TokenNotFound');
    expect(await readError(chain.read((tx) => topmostOwner(tx, 1, 4, 2)))).toBe('structure.DepthLimit');
  });

  it('bundleRoot finds the topmost token from any member; bundleTree returns the same tree', async () => {
    const chain = await bundle();
    for (const ref of [
      { collectionId: 1, tokenId: 1 },
      { collectionId: 1, tokenId: 4 },
      { collectionId: 2, tokenId: 1 }
    ]) {
      const tree = await chain.read(async (tx) => bundleTree(tx, await bundleRoot(tx, ref)));
      expect(shape(tree)).toEqual({
        id: '1/1',
        children: [
          { id: '1/2', children: [{ id: '1/4', children: [] }] },
          { id: '2/1', children: [] }
        ]
      });
    }
    const tree = await chain.read((tx) => bundleTree(tx, { collectionId: 1, tokenId: 1 }));
    expect(tree.children[0].token).toMatchObject({ collectionId: 1, tokenId: 2, owner: addr(1, 1) });
    expect(await readError(chain.read((tx) => bundleRoot(tx, { collectionId: 1, tokenId: 99 })))).toBe('structure.TokenNotFound');
    expect(await readError(chain.read((tx) => bundleTree(tx, { collectionId: 1, tokenId: 1 }, 1)))).toBe('structure.DepthLimit');
  });

  it('isBundle: false for a lone or missing token', async () => {
    const chain = await bundle();
    expect(await chain.read((tx) => isBundle(tx, { collectionId: 1, tokenId: 3 }))).toBe(false);
    expect(await chain.read((tx) => isBundle(tx, { collectionId: 1, tokenId: 99 }))).toBe(false);
    expect(await chain.read((tx) => isBundle(tx, { collectionId: 1, tokenId: 4 }))).toBe(true);
  });
});
