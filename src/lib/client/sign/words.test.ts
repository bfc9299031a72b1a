// The sign dialog's words: a call and a dry run's changes as a person reads them, amounts in
// display units, names for known addresses, one group per account, collection and token.
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import { describe, expect, it } from 'vitest';
import type { Call } from '../../codec/call-types';
import { sameAddress } from '../address';
import { unitsText } from '../format';
import type { Change } from '../types';
import { describeCall, describeChanges, wordsFor, type CollectionFacts, type WordsContext } from './words';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const STRANGER = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';
/** Bob's key in another SS58 prefix (Unique's 7391): the same account. */
const BOB_UNQ = 'unhk98EgHVJ3Efjz4912GfWkMoW2GXe3SuFrQ6u2bYeWToXrE';
const OPL = 10n ** 18n;

const COLLECTIONS: Record<number, CollectionFacts> = {
  1: { name: 'Cats', mode: 'NFT', decimals: 0, tokenPrefix: 'CAT' },
  2: { name: 'Gold', mode: 'Fungible', decimals: 6, tokenPrefix: 'GLD' },
  3: { name: 'Shares', mode: 'ReFungible', decimals: 0, tokenPrefix: 'SHR' }
};

const ctx: WordsContext = {
  signer: ALICE,
  native: { unit: 'OPL', decimals: 18 },
  nameOf: (address) => (sameAddress(address, BOB) ? 'Bob' : null),
  collection: (id) => COLLECTIONS[id] ?? null
};

const words = (call: Call, changes: Change[] | null = null) => describeCall(call, ctx, changes).summary;
const lines = (changes: Change[]) => describeChanges(changes, ctx).map((g) => ({ title: g.title, lines: g.lines }));

describe('unitsText', () => {
  it('applies the decimals, groups thousands, and marks an amount cut short', () => {
    expect(unitsText(1_134_250_000n, 6, 'GLD')).toBe('1 134.25 GLD');
    expect(unitsText('5000000000000000000', 18, 'OPL')).toBe('5 OPL');
    expect(unitsText(0n, 18, 'OPL')).toBe('0 OPL');
    expect(unitsText(-2_500_000n, 6, 'GLD')).toBe('−2.5 GLD');
    expect(unitsText(12_345_678_901_234_567n, 18, 'OPL')).toBe('≈0.0123 OPL');
    // Smaller than the digits shown: enough digits to show it is not 0.
    expect(unitsText(1_234n, 18, 'OPL')).toBe('≈0.0000000000000012 OPL');
    expect(unitsText(1_000n, 18, 'OPL')).toBe('0.000000000000001 OPL');
    expect(unitsText(7n, 0, 'pieces')).toBe('7 pieces');
    // A Fungible collection's few decimals: exact, as its page shows the amount.
    expect(unitsText(1_134_249_999n, 6, 'GLD')).toBe('1 134.249999 GLD');
    expect(unitsText(1n, 8, 'GLD')).toBe('0.00000001 GLD');
  });
});

describe('describeCall', () => {
  it('says a transfer with its amount in display units and the recipient’s name', () => {
    expect(words({ name: 'balances.transferKeepAlive', args: { dest: BOB, value: 5n * OPL } })).toBe('Transfer 5 OPL to Bob');
    expect(words({ name: 'balances.transferKeepAlive', args: { dest: BOB_UNQ, value: OPL / 2n } })).toBe('Transfer 0.5 OPL to Bob');
    expect(words({ name: 'balances.transferKeepAlive', args: { dest: STRANGER, value: 1n } })).toBe('Transfer 0.000000000000000001 OPL to 5FLSig…S59Y');
  });

  it('says a new collection by its name, then its prefix and (Fungible) decimals', () => {
    const data = { mode: 'Fungible' as const, decimals: 6, name: 'Gold Dust', description: '', tokenPrefix: 'GLD', properties: [], tokenPropertyPermissions: [], adminList: [] };
    expect(words({ name: 'unique.createCollectionEx', args: { data } } as Call)).toBe('Create the fungible collection “Gold Dust” (prefix GLD, 6 decimals)');
    expect(words({ name: 'unique.createCollectionEx', args: { data: { ...data, mode: 'NFT', decimals: 0, tokenPrefix: '' } } } as Call)).toBe('Create the NFT collection “Gold Dust”');
  });

  it('says token properties of a Unique schema collection by their fields’ names and values, others by their keys', () => {
    const schemaCtx: WordsContext = {
      ...ctx,
      collection: (id) =>
        id === 5
          ? { name: 'Art', mode: 'NFT', decimals: 0, tokenPrefix: 'ART', uniqueSchema: true, attributes: { '0': { name: { _: 'color' }, type: 'string', enumValues: { '0': { _: 'red' }, '1': { _: 'blue' } } } as never } }
          : ctx.collection(id)
    };
    const said = describeChanges(
      [
        { kind: 'tokenProperty', collectionId: 5, tokenId: 1, key: 'n', before: null, after: '{"_":"Sunset"}' },
        { kind: 'tokenProperty', collectionId: 5, tokenId: 1, key: 'a.0', before: '0', after: '1' },
        { kind: 'tokenProperty', collectionId: 5, tokenId: 1, key: 'x', before: null, after: '7' },
        { kind: 'tokenProperty', collectionId: 1, tokenId: 2, key: 'n', before: null, after: '{"_":"Tom"}' }
      ],
      schemaCtx
    );
    expect(said.map((g) => g.lines)).toEqual([['Name: “Sunset”', 'Attribute “color”: “red” → “blue”', 'Property “x” set to “7”'], ['Property “n” set to “{"_":"Tom"}”']]);
  });

  it('names the addresses of a chain message the app knows, and leaves the others as written', () => {
    const w = wordsFor(ctx);
    expect(w.namedText(`${BOB} holds 5 GLD and cannot send 9 GLD; ${STRANGER} neither`)).toBe(`Bob holds 5 GLD and cannot send 9 GLD; ${STRANGER} neither`);
    expect(w.namedText(`${ALICE} holds 5 GLD`)).toBe("your account holds 5 GLD");
    // Unique's (prefix 7391) and Quartz's (255) addresses are 49 characters long.
    const bobOnUnique = encodeAddress(decodeAddress(BOB), 7391);
    expect(bobOnUnique).toHaveLength(49);
    expect(w.namedText(`sent to ${bobOnUnique}.`)).toBe('sent to Bob.');
  });

  it('says what an operator for all tokens may do, and its withdrawal', () => {
    expect(words({ name: 'unique.setAllowanceForAll', args: { collectionId: 3, operator: BOB, approve: true } })).toBe(
      'Allow Bob to transfer and burn all your tokens in collection “Shares” (#3)'
    );
    expect(words({ name: 'unique.setAllowanceForAll', args: { collectionId: 1, operator: BOB, approve: false } })).toBe(
      'Take back Bob’s right to transfer and burn all your tokens in collection “Cats” (#1)'
    );
  });

  it('names the token a mint makes from the dry run, and the owner as “you”', () => {
    const mint: Call = { name: 'unique.createItem', args: { collectionId: 1, owner: ALICE, properties: [] } };
    const minted: Change = { kind: 'token', collectionId: 1, tokenId: 3, before: null, after: { owner: ALICE } };
    expect(words(mint, [minted])).toBe('Mint token #3 in collection “Cats” (#1) for you');
    expect(words(mint)).toBe('Mint a token in collection “Cats” (#1) for you');
  });

  it('says fungible amounts with the collection’s decimals and refungible amounts as pieces', () => {
    expect(words({ name: 'unique.transfer', args: { to: BOB, collectionId: 2, tokenId: 0, value: 99_999_000_000n } })).toBe('Send 99 999 GLD of collection “Gold” (#2) to Bob');
    expect(words({ name: 'unique.transfer', args: { to: BOB, collectionId: 3, tokenId: 4, value: 25n } })).toBe('Send 25 pieces of token #4 of collection “Shares” (#3) to Bob');
    expect(words({ name: 'unique.transfer', args: { to: BOB, collectionId: 1, tokenId: 4, value: 1n } })).toBe('Transfer token #4 of collection “Cats” (#1) to Bob');
    expect(words({ name: 'unique.createItem', args: { collectionId: 3, owner: ALICE, properties: [], kind: 'ReFungible', amount: 100n } })).toBe(
      'Mint a token in 100 pieces in collection “Shares” (#3) for you'
    );
  });

  it('says a refungible token shared out among several owners as one token in its pieces', () => {
    const items = [
      { owner: ALICE, properties: [], amount: 1n },
      { owner: BOB, properties: [], amount: 2n }
    ];
    expect(words({ name: 'unique.createMultipleItemsEx', args: { collectionId: 3, kind: 'RefungibleMultipleOwners', items, properties: [] } })).toBe(
      'Mint a token in 3 pieces in collection “Shares” (#3) for you, Bob'
    );
  });

  it('says a transferFrom or burnFrom of the signer’s own as a plain transfer or burn, and names another holder', () => {
    expect(words({ name: 'unique.transferFrom', args: { from: ALICE, to: BOB, collectionId: 1, tokenId: 2, value: 1n } })).toBe('Transfer token #2 of collection “Cats” (#1) to Bob');
    expect(words({ name: 'unique.transferFrom', args: { from: BOB, to: ALICE, collectionId: 1, tokenId: 2, value: 1n } })).toBe('Transfer token #2 of collection “Cats” (#1) from Bob to you');
    expect(words({ name: 'unique.burnFrom', args: { from: ALICE, collectionId: 2, tokenId: 0, value: 250_000n } })).toBe('Burn 0.25 GLD of collection “Gold” (#2)');
    expect(words({ name: 'unique.burnFrom', args: { from: BOB, collectionId: 1, tokenId: 7, value: 1n } })).toBe('Burn token #7 of collection “Cats” (#1) held by Bob');
  });

  it('calls an unknown collection by its id', () => {
    expect(words({ name: 'unique.destroyCollection', args: { collectionId: 77 } })).toBe('Destroy collection #77');
  });

  it('says each call of a batch', () => {
    const batch: Call = {
      name: 'utility.batchAll',
      args: {
        calls: [
          { name: 'unique.addCollectionAdmin', args: { collectionId: 1, newAdmin: BOB } },
          { name: 'unique.setCollectionLimits', args: { collectionId: 1, limits: { tokenLimit: 10 } } }
        ]
      }
    };
    expect(describeCall(batch, ctx)).toEqual({
      summary: '2 calls in one batch (all or nothing)',
      parts: ['Make Bob an admin of collection “Cats” (#1)', 'Change the limits of collection “Cats” (#1): token limit']
    });
  });
});

describe('describeChanges', () => {
  it('groups balances per account, signer first, with the change and the balance before and after', () => {
    const changes: Change[] = [
      { kind: 'balance', address: BOB, before: '0', after: String(5n * OPL) },
      { kind: 'nonce', address: ALICE, before: 0, after: 1 },
      { kind: 'balance', address: ALICE, before: String(1000n * OPL), after: String(995n * OPL - 12_000_000_000_000_000n) }
    ];
    expect(lines(changes)).toEqual([
      { title: 'You', lines: ['−5.012 OPL (balance 1 000 OPL → 994.988 OPL)'] },
      { title: 'Bob', lines: ['+5 OPL (balance 0 OPL → 5 OPL)'] }
    ]);
  });

  it('says a refungible token split between holders with its pieces only: no token “sent” to a placeholder owner', () => {
    const split: Change = { kind: 'tokenOwner', collectionId: 3, tokenId: 4, before: ALICE, after: '0xffffffffffffffffffffffffffffffffffffffff' };
    const pieces: Change[] = [
      { kind: 'pieces', collectionId: 3, tokenId: 4, address: ALICE, before: '100', after: '60' },
      { kind: 'pieces', collectionId: 3, tokenId: 4, address: BOB, before: '0', after: '40' }
    ];
    const said = lines([split, ...pieces]);
    expect(said.map((g) => g.title)).toEqual(['You', 'Bob']);
    expect(said.flatMap((g) => g.lines).join(' ')).not.toMatch(/Sends|Receives|0xffff/);
    // Without pieces lines (a list of changes that has none), the token says it.
    expect(lines([split]).flatMap((g) => g.lines)).toEqual(['Now held by several holders']);
  });

  it('says tokens moving out and in on both accounts, and mints per owner as id ranges', () => {
    const changes: Change[] = [
      { kind: 'tokenOwner', collectionId: 1, tokenId: 4, before: ALICE, after: BOB },
      ...[5, 6, 7].map((tokenId): Change => ({ kind: 'token', collectionId: 1, tokenId, before: null, after: { owner: ALICE } })),
      { kind: 'token', collectionId: 1, tokenId: 2, before: { owner: ALICE }, after: null }
    ];
    expect(lines(changes)).toEqual([
      {
        title: 'You',
        lines: ['Gets 3 new tokens (#5–#7) of collection “Cats” (#1)', 'Loses token #2 of collection “Cats” (#1): burned', 'Sends token #4 of collection “Cats” (#1) to Bob']
      },
      { title: 'Bob', lines: ['Receives token #4 of collection “Cats” (#1) from you'] }
    ]);
  });

  it('says fungible balances in the collection’s decimals and pieces as whole numbers', () => {
    const changes: Change[] = [
      { kind: 'fungibleBalance', collectionId: 2, address: ALICE, before: '1134250000', after: '134250000' },
      { kind: 'fungibleBalance', collectionId: 2, address: BOB, before: '0', after: '1000000000' },
      { kind: 'pieces', collectionId: 3, tokenId: 4, address: ALICE, before: '100', after: '75' },
      { kind: 'fungibleSupply', collectionId: 2, before: '1134250000', after: '1134250000' }
    ];
    expect(lines(changes)).toEqual([
      { title: 'You', lines: ['−1 000 GLD of collection “Gold” (#2) (balance 1 134.25 GLD → 134.25 GLD)', '−25 pieces of token #4 of collection “Shares” (#3) (holds 100 pieces → 75 pieces)'] },
      { title: 'Bob', lines: ['+1 000 GLD of collection “Gold” (#2) (balance 0 GLD → 1 000 GLD)'] },
      { title: 'Collection “Gold” (#2)', lines: ['Total supply: 1 134.25 GLD → 1 134.25 GLD'] }
    ]);
  });

  it('says properties set, changed and removed, on the collection or the token they belong to', () => {
    const changes: Change[] = [
      { kind: 'collectionProperty', collectionId: 1, key: 'site', before: null, after: 'https://cats.example' },
      { kind: 'collectionProperty', collectionId: 1, key: 'mood', before: 'calm', after: 'wild' },
      { kind: 'tokenProperty', collectionId: 1, tokenId: 9, key: 'name', before: 'Tom', after: null },
      { kind: 'tokenProperty', collectionId: 1, tokenId: 9, key: 'story', before: null, after: 'x'.repeat(200) }
    ];
    expect(lines(changes)).toEqual([
      { title: 'Collection “Cats” (#1)', lines: ['Property “site” set to “https://cats.example”', 'Property “mood”: “calm” → “wild”'] },
      { title: 'Token #9 of collection “Cats” (#1)', lines: ['Property “name” removed (it was “Tom”)', `Property “story” set to “${'x'.repeat(80)}…”`] }
    ]);
  });

  it('says a collection created and destroyed, admins, limits, permissions, sponsor and allow list', () => {
    const changes: Change[] = [
      { kind: 'collection', collectionId: 8, before: null, after: { name: 'Dogs', description: '', tokenPrefix: 'DOG', mode: 'NFT', decimals: 0, owner: ALICE } },
      { kind: 'collection', collectionId: 1, before: { name: 'Cats', owner: ALICE }, after: null },
      // Its settings go with it: not said one by one.
      { kind: 'collectionProperty', collectionId: 1, key: 'site', before: 'https://cats.example', after: null },
      { kind: 'admin', collectionId: 1, address: BOB, before: true, after: false },
      { kind: 'admin', collectionId: 2, address: BOB, before: false, after: true },
      { kind: 'limit', collectionId: 2, key: 'tokenLimit', before: null, after: 10 },
      { kind: 'limit', collectionId: 2, key: 'transfersEnabled', before: null, after: false },
      { kind: 'permission', collectionId: 2, key: 'access', before: 'Normal', after: 'AllowList' },
      { kind: 'permission', collectionId: 2, key: 'nesting', before: { tokenOwner: false, collectionAdmin: false, restricted: null }, after: { tokenOwner: true, collectionAdmin: false, restricted: [1] } },
      { kind: 'sponsorship', collectionId: 2, before: null, after: { address: BOB, isConfirmed: false } },
      { kind: 'allowList', collectionId: 2, address: STRANGER, before: false, after: true },
      { kind: 'propertyPermission', collectionId: 2, key: 'name', before: null, after: { mutable: true, collectionAdmin: true, tokenOwner: false } }
    ];
    const groups = lines(changes);
    expect(groups).toEqual([
      { title: 'Collection “Dogs” (#8)', lines: ['Created: NFT collection “Dogs”, prefix DOG, owned by you'] },
      { title: 'Collection “Cats” (#1)', lines: ['Destroyed (it was “Cats”)'] },
      {
        title: 'Collection “Gold” (#2)',
        lines: [
          'Bob becomes an admin',
          'Limit “token limit”: not set → 10',
          'Limit “transfers enabled”: not set → off',
          'Permission “access”: Normal → AllowList',
          'Nesting: nobody may nest → token owners may nest (only tokens of collections #1)',
          'Sponsor: none → Bob (not confirmed yet)',
          '5FLSig…S59Y is added to the allow list',
          'Token property “name”: set by the collection’s admins, changeable later'
        ]
      }
    ]);
  });

  it('names the treasury, where fees and deposits go', () => {
    expect(lines([{ kind: 'balance', address: '5EYCAe5ijiYfyeZ2JJCGq56LmPyNRAKzpG4QkoQkkQNB5e6Z', before: '0', after: String(2n * OPL) }])).toEqual([
      { title: 'The treasury', lines: ['+2 OPL (balance 0 OPL → 2 OPL)'] }
    ]);
  });

  it('leaves nonces out and gives an empty list when nothing a person sees changes', () => {
    expect(describeChanges([{ kind: 'nonce', address: ALICE, before: 1, after: 2 }], ctx)).toEqual([]);
  });
});
