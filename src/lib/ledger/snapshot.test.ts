// The ledger export file: tagged bigints, and the row-by-row check of an import.
import { describe, expect, it } from 'vitest';
import {
  ALICE,
  BOB,
  account,
  block,
  collection,
  extrinsic,
  pooled,
  token
} from '../storage/testing/fixtures';
import { SnapshotError, fromTaggedJson, parseSnapshot, serializeSnapshot, toTaggedJson, type Dump } from './snapshot';

function sampleDump(): Dump {
  return {
    meta: [
      { key: 'chainConfig', value: { network: 'sandbox', genesisHash: '0x' + '11'.repeat(32), rules: 'spec' } },
      { key: 'issuance', value: 10n ** 27n },
      // Fungible and ReFungible state (fungible/state.ts, refungible/state.ts, tokens/piece-children.ts).
      { key: 'ft:supply:3', value: 2n ** 128n - 1n },
      { key: `ft:balance:3:${ALICE}`, value: 2n ** 128n - 1n },
      { key: `ft:allowance:3:${ALICE}:${BOB}`, value: 5n },
      { key: 'rft:pieces:4:1', value: { total: 10n, balances: { [ALICE]: 7n, [BOB]: 3n } } },
      { key: `rft:owned:4:${ALICE}`, value: [1] },
      { key: `rft:allowance:4:1:${ALICE}:${BOB}`, value: 2n },
      { key: 'children:1:1', value: [{ collectionId: 3, tokenId: 0 }] },
      { key: 'head', value: { number: 1, hash: block(1).hash } },
      { key: 'snapshots', value: { next: 2, list: [{ snapshotId: '1', blockNumber: 0, blockHash: block(0).hash, createdAt: 1 }] } }
    ],
    accounts: [account(ALICE, 10n ** 30n + 1n, 3), account(BOB, 0n)],
    collections: [collection(1), { ...collection(2, BOB), sponsorship: { address: ALICE, isConfirmed: false } }],
    tokens: [token(1, 1), { ...token(1, 2, BOB), approved: ALICE }, token(2, 1, [1, 1])],
    allowList: [{ collectionId: 1, address: BOB }],
    blocks: [block(0), { ...block(1), extrinsics: ['0xaa'] }],
    extrinsics: [
      extrinsic('0xaa', ALICE, 1000),
      {
        ...extrinsic('0xab', BOB, 1001),
        call: { name: 'unique.transfer', args: { to: ALICE, collectionId: 1, tokenId: 2, value: 1n } },
        status: 'Invalid',
        isError: true,
        blockNumber: null,
        blockHash: null,
        blockIndex: null,
        error: { section: 'system', name: 'Stale', message: 'The nonce was used' }
      }
    ],
    pool: [pooled('0xbb', ALICE, 3)]
  };
}

const exportOf = (tables: unknown) => serializeSnapshot(tables as Dump, 1_700_000_000_000);

/** The error parseSnapshot throws for `tables`, with `change` applied to a fresh sample. */
function refusal(change: (tables: Record<string, unknown[]>) => void): SnapshotError {
  const tables = sampleDump() as unknown as Record<string, unknown[]>;
  change(tables);
  try {
    parseSnapshot(exportOf(tables));
  } catch (e) {
    expect(e).toBeInstanceOf(SnapshotError);
    return e as SnapshotError;
  }
  throw new Error('the export was accepted');
}

describe('tagged JSON', () => {
  it('round-trips bigints, nested and negative, as {"$bigint": "…"}', () => {
    const value = { a: 2n ** 100n, list: [-5n, 0n, 1], s: 'x', nested: { b: 7n } };
    const json = toTaggedJson(value);
    expect(JSON.parse(json)).toEqual({ a: { $bigint: String(2n ** 100n) }, list: [{ $bigint: '-5' }, { $bigint: '0' }, 1], s: 'x', nested: { b: { $bigint: '7' } } });
    expect(fromTaggedJson(json)).toEqual(value);
    expect(fromTaggedJson('{"a":1,"b":[true,null]}')).toEqual({ a: 1, b: [true, null] });
  });
});

describe('parseSnapshot', () => {
  it('reads back what serializeSnapshot wrote, bigints included', () => {
    const tables = sampleDump();
    const snapshot = parseSnapshot(exportOf(tables));
    expect(snapshot.tables).toEqual(tables);
    expect(snapshot.exportedAt).toBe(1_700_000_000_000);
    expect(typeof snapshot.tables.accounts[0].free).toBe('bigint');
    expect(typeof snapshot.tables.pool[0].fee).toBe('bigint');
  });

  it('takes an export made before the pool was stored, with an empty pool', () => {
    const { pool: _pool, ...older } = sampleDump();
    expect(parseSnapshot(exportOf(older)).tables.pool).toEqual([]);
  });

  it('refuses what is not an Opalite export', () => {
    expect(() => parseSnapshot('not json')).toThrow(/not JSON/);
    expect(() => parseSnapshot('{"chainConfig": {}}')).toThrow(/not an Opalite ledger export/);
    expect(() => parseSnapshot(JSON.stringify({ format: 'opalite-ledger', version: 2, tables: {} }))).toThrow(/version 2/);
    const { tokens: _tokens, ...noTokens } = sampleDump();
    expect(() => parseSnapshot(exportOf(noTokens))).toThrow(/lacks the "tokens" table/);
    expect(() => parseSnapshot(exportOf({ ...sampleDump(), meta: [] }))).toThrow(/no chain configuration/);
  });

  const badRows: [string, string, number, (t: Record<string, any[]>) => void, RegExp][] = [
    ['a balance that is not a bigint', 'accounts', 1, (t) => (t.accounts[1].free = 5), /free/],
    ['an account without an address', 'accounts', 0, (t) => delete t.accounts[0].address, /address/],
    ['a row that is not an object', 'tokens', 2, (t) => (t.tokens[2] = null), /expected object/],
    ['a fractional token id', 'tokens', 0, (t) => (t.tokens[0].tokenId = 1.5), /tokenId/],
    ['a negative collection id', 'tokens', 1, (t) => (t.tokens[1].collectionId = -1), /collectionId/],
    ['a token without an owner', 'tokens', 1, (t) => delete t.tokens[1].owner, /owner/],
    ['half a parent reference', 'tokens', 2, (t) => delete t.tokens[2].parentTokenId, /parentTokenId/],
    ['a property value that is not text', 'tokens', 0, (t) => (t.tokens[0].properties = [{ key: 'n', value: 1 }]), /properties\.0\.value/],
    ['an unknown collection mode', 'collections', 1, (t) => (t.collections[1].mode = 'Bogus'), /mode/],
    ['an allow-list address that is an object', 'allowList', 0, (t) => (t.allowList[0].address = { not: 'a key' }), /address/],
    ['a block hash that is not hex', 'blocks', 1, (t) => (t.blocks[1].hash = 'abc'), /hash/],
    ['an unknown extrinsic status', 'extrinsics', 1, (t) => (t.extrinsics[1].status = 'Done'), /status/],
    ['a transfer amount that is not a bigint', 'extrinsics', 1, (t) => (t.extrinsics[1].call.args.value = '1'), /call\.args\.value: expected a bigint/],
    ['a pool fee that is not a bigint', 'pool', 0, (t) => (t.pool[0].fee = '1000'), /fee/],
    ['a fungible balance that is a number', 'meta', 3, (t) => (t.meta[3].value = 5), /value/],
    ['a zero fungible supply (a zero is no row)', 'meta', 2, (t) => (t.meta[2].value = 0n), /value: expected an amount above 0/],
    ['refungible pieces without a total', 'meta', 5, (t) => delete t.meta[5].value.total, /value\.total/],
    ['a piece balance that is not a bigint', 'meta', 5, (t) => (t.meta[5].value.balances[BOB] = '3'), /value\.balances/],
    ['an owned-token list of text', 'meta', 6, (t) => (t.meta[6].value = ['1']), /value\.0/],
    ['a child reference without a token id', 'meta', 8, (t) => (t.meta[8].value = [{ collectionId: 3 }]), /value\.0\.tokenId/],
    ['a mint amount that is not a bigint', 'extrinsics', 1, (t) => (t.extrinsics[1].call = { name: 'unique.createItem', args: { collectionId: 3, owner: ALICE, properties: [], kind: 'Fungible', amount: 1 } }), /call\.args\.amount/],
    ['a repartition amount that is missing', 'extrinsics', 1, (t) => (t.extrinsics[1].call = { name: 'unique.repartition', args: { collectionId: 4, tokenId: 1 } }), /call\.args\.amount/],
    ['two rows with the same key', 'tokens', 2, (t) => (t.tokens[2] = token(1, 1, BOB)), /same key as row 0/],
    ['two pool rows with the same hash', 'pool', 1, (t) => t.pool.push(pooled('0xbb', BOB, 1)), /same key as row 0/],
    // What a hand-edited export could hold that would answer nonsense or break the sandbox.
    ['a negative balance', 'accounts', 0, (t) => (t.accounts[0].free = -5n), /free: expected an amount of at least 0/],
    ['a balance past u128', 'accounts', 0, (t) => (t.accounts[0].free = 2n ** 128n), /free: expected an amount of at most 2\^128 - 1/],
    ['an account address that is none', 'accounts', 1, (t) => (t.accounts[1].address = 'nope'), /address: expected an SS58 account/],
    ['a token owner that is none', 'tokens', 0, (t) => (t.tokens[0].owner = 'zz'), /owner: expected an SS58 account/],
    ['token id 0', 'tokens', 0, (t) => (t.tokens[0].tokenId = 0), /tokenId/],
    ['collection id 0', 'collections', 0, (t) => (t.collections[0].id = 0), /id/],
    ['a token that is its own parent', 'tokens', 2, (t) => Object.assign(t.tokens[2], { parentCollectionId: 2, parentTokenId: 1 }), /its own parent/],
    ['a snapshot book that is not one', 'meta', 10, (t) => (t.meta[10].value = 'garbage'), /value: Invalid input: expected object/]
  ];

  it('refuses a head that is not one of its blocks, blocks past the head, and a token of a collection it lacks', () => {
    expect(refusal((t) => ((t.meta[9] as { value: unknown }).value = { number: 999, hash: '0x' + '12'.repeat(32) })).message).toMatch(/head of this ledger export \(block 999/);
    expect(refusal((t) => ((t.meta[9] as { value: unknown }).value = { number: 0, hash: block(0).hash })).message).toMatch(/blocks after its head \(block 0\)/);
    expect(refusal((t) => t.meta.splice(9, 1)).message).toMatch(/no head/);
    expect(refusal((t) => t.tokens.push(token(7, 1))).message).toMatch(/Row 3 of the "tokens" table .*collection 7 is not in the export/);
  });

  it("takes a fork's token whose collection it never copied (its source holds it)", () => {
    const tables = sampleDump();
    const config = tables.meta.find((r) => r.key === 'chainConfig')!;
    config.value = { ...(config.value as object), fork: { source: 'http://127.0.0.1:9/v1', blockHash: '0x' + '22'.repeat(32) } };
    tables.tokens.push(token(7, 1));
    expect(parseSnapshot(exportOf(tables)).tables.tokens).toHaveLength(4);
  });

  it.each(badRows)('refuses %s, naming the table and row', (_what, table, index, change, why) => {
    const error = refusal(change as never);
    expect(error.message).toContain(`Row ${index} of the "${table}" table`);
    expect(error.message).toMatch(why);
  });

  it('quotes at most about 120 characters of a bad row', () => {
    const error = refusal((t) => (t.collections[0] = { ...collection(1), description: 'd'.repeat(5000), decimals: -1 }));
    expect(error.message).toMatch(/Row 0 of the "collections" table .*decimals/);
    const quoted = error.message.slice(error.message.indexOf('): ') + 3);
    expect(quoted.length).toBeLessThanOrEqual(120);
    expect(quoted.startsWith('{"id":1')).toBe(true);
    expect(error.message.length).toBeLessThan(300);
  });
});
