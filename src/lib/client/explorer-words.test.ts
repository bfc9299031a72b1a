// The explorer's words: an extrinsic's status, who paid its fee, balance changes in display
// units, a token's changes between two reads, a change list in the sign dialog's wording with
// nobody called "you", and what a revert removes.
import { describe, expect, it } from 'vitest';
import { balanceEntryWords, changeGroups, collectionIdsOf, deltaText, feePayerOf, statusWords, tokenChanges, type ExplorerWordsContext } from './explorer-words';
import { revertLoss } from './snapshots';
import type { Change, ExplorerBlock, ExtrinsicStatus, Token } from './types';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const OPL = { unit: 'OPL', decimals: 18 };
const UNIT = 10n ** 18n;

const ctx: ExplorerWordsContext = {
  native: OPL,
  nameOf: (address) => ({ [ALICE]: 'Alice', [BOB]: 'Bob' })[address] ?? null,
  collection: (id) => (id === 7 ? { name: 'Gold', mode: 'Fungible', decimals: 2, tokenPrefix: 'GLD' } : id === 3 ? { name: 'Art', mode: 'NFT', decimals: 0, tokenPrefix: 'ART' } : null)
};

const status = (over: Partial<ExtrinsicStatus>): ExtrinsicStatus => ({ status: 'InBlock', isCompleted: true, isError: false, hash: `0x${'1'.repeat(64)}`, error: null, ...over });
const inBlock = { hash: `0x${'2'.repeat(64)}`, header: { number: 12 } };

describe('status in words', () => {
  it('says success, failure, refusal, revert and waiting each in its own words', () => {
    expect(statusWords(status({ block: inBlock, blockIndex: 0 }))).toEqual({ tone: 'ok', title: 'Succeeded', text: 'Included in block 12 as its extrinsic 0; the call succeeded.' });
    const failed = statusWords(status({ block: inBlock, isError: true, error: { message: 'No permission', details: { section: 'common', name: 'NoPermission' } } }));
    expect(failed.tone).toBe('error');
    expect(failed.text).toBe('Included in block 12, but the call failed: No permission (common.NoPermission). The fee was charged and the nonce used; nothing else changed.');
    const reverted = statusWords(
      status({ status: 'Invalid', isError: true, error: { message: 'Reverted: the ledger was reverted to block 4, before the block that included this extrinsic', details: { section: 'system', name: 'Reverted' } } })
    );
    expect(reverted).toMatchObject({ tone: 'warn', title: 'Reverted' });
    expect(reverted.text).toContain('reverted to block 4');
    expect(statusWords(status({ status: 'Invalid', isError: true, error: { message: 'Stale nonce' } })).text).toBe('Refused before any block: Stale nonce. Nothing changed and no fee was charged.');
    expect(statusWords(status({ status: 'Ready', isCompleted: false })).title).toBe('Waiting');
  });

  it('names the fee payer from the chain’s fee event, and nobody when there is none', () => {
    expect(feePayerOf([{ section: 'balances', method: 'Withdraw', data: { who: BOB } }, { section: 'transactionPayment', method: 'TransactionFeePaid', data: { who: ALICE, actualFee: '1' } }])).toBe(ALICE);
    expect(feePayerOf([{ section: 'balances', method: 'Withdraw', data: { who: BOB } }])).toBeNull();
    expect(feePayerOf(undefined)).toBeNull();
  });
});

describe('amounts in display units', () => {
  it('says the change of a balance with its sign, exact or marked approximate', () => {
    expect(deltaText('0', String(1000n * UNIT), OPL)).toBe('+1 000 OPL');
    expect(deltaText(String(5n * UNIT), String(4n * UNIT - UNIT / 10n), OPL)).toBe('−1.1 OPL');
    expect(deltaText('0', '123456789', OPL)).toBe('+≈0.00000000012 OPL');
    expect(balanceEntryWords({ blockNumber: 1, blockHash: '', timestamp: 0, extrinsic: null, before: String(3n * UNIT), after: String(UNIT) }, OPL)).toEqual({ delta: '−2 OPL', balance: '1 OPL', incoming: false });
  });
});

describe('change lists in words', () => {
  const changes: Change[] = [
    { kind: 'balance', address: ALICE, before: String(10n * UNIT), after: String(5n * UNIT) },
    { kind: 'nonce', address: ALICE, before: 0, after: 1 },
    { kind: 'balance', address: BOB, before: '0', after: String(5n * UNIT) },
    { kind: 'fungibleBalance', collectionId: 7, address: BOB, before: '0', after: '1250' },
    { kind: 'token', collectionId: 3, tokenId: 1, before: null, after: { owner: BOB } },
    { kind: 'tokenProperty', collectionId: 3, tokenId: 1, key: 'mood', before: null, after: 'calm' }
  ];

  it('speaks of every account by name (nobody is "you"), signer first, amounts in each collection’s units', () => {
    // The wording is the sign dialog's (sign/words.ts): checked here for what the explorer adds.
    const groups = changeGroups(changes, ctx, BOB);
    const accounts = groups.filter((g) => g.subject.kind === 'account').map((g) => (g.subject as { address: string }).address);
    expect(accounts).toEqual([BOB, ALICE]);
    expect(groups[0].title).toBe('Bob');
    const bob = groups[0].lines.join(' | ');
    expect(bob).toContain('+5 OPL (balance 0 OPL → 5 OPL)');
    expect(bob).toContain('12.5 GLD');
    expect(groups.find((g) => g.subject.kind === 'token')?.lines.join(' ')).toContain('“calm”');
    expect(groups.flatMap((g) => [g.title, ...g.lines]).join(' ')).not.toMatch(/\byou(r)?\b/i);
    expect(changeGroups(changes, ctx, ALICE)[0].title).toBe('Alice');
  });

  it('lists the collections a change list names, each once and bounded', () => {
    expect(collectionIdsOf(changes)).toEqual([7, 3]);
    const many = Array.from({ length: 40 }, (_, i): Change => ({ kind: 'collection', collectionId: i + 1, before: null, after: null }));
    expect(collectionIdsOf(many)).toHaveLength(16);
  });

  it('says what changed on a token between two reads: minted, handed over, properties set, changed and removed', () => {
    const token = (owner: string, properties: [string, string][]): Token => ({ collectionId: 3, tokenId: 1, owner, properties: properties.map(([key, value]) => ({ key, value })) });
    expect(tokenChanges(3, 1, null, token(BOB, [['a', '1']]))).toEqual([
      { kind: 'token', collectionId: 3, tokenId: 1, before: null, after: { owner: BOB } },
      { kind: 'tokenProperty', collectionId: 3, tokenId: 1, key: 'a', before: null, after: '1' }
    ]);
    expect(tokenChanges(3, 1, token(ALICE, [['a', '1'], ['b', '2']]), token(BOB, [['a', '9'], ['c', '3']]))).toEqual([
      { kind: 'tokenOwner', collectionId: 3, tokenId: 1, before: ALICE, after: BOB },
      { kind: 'tokenProperty', collectionId: 3, tokenId: 1, key: 'a', before: '1', after: '9' },
      { kind: 'tokenProperty', collectionId: 3, tokenId: 1, key: 'b', before: '2', after: null },
      { kind: 'tokenProperty', collectionId: 3, tokenId: 1, key: 'c', before: null, after: '3' }
    ]);
    // The same owner spelled with another prefix is no change.
    expect(tokenChanges(3, 1, token(ALICE, []), token('0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d', []))).toEqual([]);
    expect(tokenChanges(3, 1, token(ALICE, []), null)).toEqual([{ kind: 'token', collectionId: 3, tokenId: 1, before: { owner: ALICE }, after: null }]);
    expect(tokenChanges(3, 1, null, null)).toEqual([]);
  });
});

describe('what a revert removes', () => {
  const block = (number: number, extrinsics: number): ExplorerBlock => ({
    number,
    hash: `0x${String(number).padStart(64, '0')}`,
    parentHash: `0x${'0'.repeat(64)}`,
    stateRoot: '0x',
    extrinsicsRoot: '0x',
    timestamp: 0,
    extrinsics: Array.from({ length: extrinsics }, (_, i) => `0x${String(i).padStart(64, '0')}`)
  });

  it('counts the blocks after the target and the extrinsics in them, and says when it read only some', () => {
    expect(revertLoss(5, 8, [block(8, 2), block(7, 0), block(6, 3), block(5, 9)])).toEqual({ blocks: 3, extrinsics: 5, extrinsicsAtLeast: false });
    expect(revertLoss(5, 300, [block(300, 1), block(299, 1)])).toEqual({ blocks: 295, extrinsics: 2, extrinsicsAtLeast: true });
    expect(revertLoss(8, 8, [])).toEqual({ blocks: 0, extrinsics: 0, extrinsicsAtLeast: false });
  });
});
