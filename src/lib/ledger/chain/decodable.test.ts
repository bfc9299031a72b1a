import { describe, expect, it } from 'vitest';
import { addressFromPublicKey } from '../../codec/address';
import { RULE_SETS } from '../rules';
import type { Call } from '../types';
import { refuseUndecodable, undecodableReason } from './decodable';
import { TransactionError } from './errors';

const properties = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: 'v' }));
const set = (props: { key: string; value: string }[]): Call => ({ name: 'unique.setTokenProperties', args: { collectionId: 1, tokenId: 1, properties: props } });
const mint = (props: { key: string; value: string }[]): Call => ({ name: 'unique.createItem', args: { collectionId: 1, owner: 'x', properties: props } });

describe('undecodableReason', () => {
  it('accepts the bounds themselves', () => {
    expect(undecodableReason(mint(properties(64)))).toBeNull();
    expect(undecodableReason(set([{ key: 'k'.repeat(256), value: 'v'.repeat(32_768) }]))).toBeNull();
  });

  it('names each bound exceeded', () => {
    expect(undecodableReason(mint(properties(65)))).toMatch(/65 properties/);
    expect(undecodableReason(set([{ key: 'é'.repeat(129), value: 'v' }]))).toMatch(/258 bytes/);
    expect(undecodableReason(set([{ key: 'k', value: 'v'.repeat(32_769) }]))).toMatch(/32769 bytes/);
  });

  it('checks every item of a multiple mint and the keys of deletions', () => {
    const items = [{ owner: 'x', properties: [] }, { owner: 'x', properties: properties(65) }];
    expect(undecodableReason({ name: 'unique.createMultipleItemsEx', args: { collectionId: 1, items } })).not.toBeNull();
    expect(undecodableReason({ name: 'unique.deleteCollectionProperties', args: { collectionId: 1, propertyKeys: ['k'.repeat(257)] } })).not.toBeNull();
  });

  it('bounds the number of entries only in creation data: set/delete/permission lists are plain vectors', () => {
    expect(undecodableReason(set(properties(65)))).toBeNull();
    expect(undecodableReason({ name: 'unique.deleteTokenProperties', args: { collectionId: 1, tokenId: 1, propertyKeys: properties(65).map((p) => p.key) } })).toBeNull();
    const permissions = properties(65).map(({ key }) => ({ key, permission: { mutable: true, collectionAdmin: true, tokenOwner: false } }));
    expect(undecodableReason({ name: 'unique.setTokenPropertyPermissions', args: { collectionId: 1, propertyPermissions: permissions } })).toBeNull();
    const data = { mode: 'NFT' as const, decimals: 0, name: 'n', description: 'd', tokenPrefix: 'p', properties: [], adminList: [] };
    expect(undecodableReason({ name: 'unique.createCollectionEx', args: { data: { ...data, tokenPropertyPermissions: permissions } } })).toMatch(/^65 token property permissions in the new collection's creation data/);
  });

  it("bounds createMultipleItemsEx's items at 120, counting a map's distinct owners", () => {
    const owners = Array.from({ length: 121 }, (_, i) => addressFromPublicKey(new Uint8Array(32).fill(i + 1)));
    const ex = (kind: 'Fungible' | 'ReFungible' | undefined, list: string[]): Call => ({
      name: 'unique.createMultipleItemsEx',
      args: { collectionId: 1, kind, items: list.map((owner) => ({ owner, properties: [], ...(kind ? { amount: 1n } : {}) })) }
    });
    expect(undecodableReason(ex(undefined, owners.slice(0, 120)))).toBeNull();
    expect(undecodableReason(ex(undefined, owners))).toBe("121 items in one createMultipleItemsEx (the chain's bound is 120)");
    expect(undecodableReason(ex('ReFungible', owners))).toMatch(/^121 items/);
    expect(undecodableReason(ex('Fungible', owners))).toMatch(/^121 items/);
    // A map keeps one entry per owner: 121 items naming 120 owners decode.
    expect(undecodableReason(ex('Fungible', [...owners.slice(0, 120), owners[0]]))).toBeNull();
    // createMultipleItems' items are a plain Vec.
    const items = owners.map(() => ({ properties: [] }));
    expect(undecodableReason({ name: 'unique.createMultipleItems', args: { collectionId: 1, owner: owners[0], items } })).toBeNull();
  });

  it('checks every call of a batch, naming the one over a bound', () => {
    expect(undecodableReason({ name: 'utility.batch', args: { calls: [set(properties(1)), mint(properties(64))] } })).toBeNull();
    expect(undecodableReason({ name: 'utility.batchAll', args: { calls: [set(properties(1)), mint(properties(65))] } })).toMatch(/^call 1 of the batch has 65 properties/);
  });
});

describe('refuseUndecodable', () => {
  it('refuses under unique rules only', () => {
    expect(() => refuseUndecodable(mint(properties(65)), RULE_SETS.unique)).toThrow(TransactionError);
    expect(() => refuseUndecodable(mint(properties(65)), RULE_SETS.spec)).not.toThrow();
  });
});
