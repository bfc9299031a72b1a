// The block producer: one account per key, a persistent bounded pool, nonces that count the pool,
// definite statuses, and sealing that survives store failures.
import { encodeAddress } from '@polkadot/util-crypto';
import { describe, expect, it, vi } from 'vitest';
import { publicKeyOf } from '../../codec/address';
import { signMessage } from '../../codec/signature';
import { encodeMortalEra } from '../../codec/era';
import { toHex } from '../../codec/hash';
import { collectionData } from '../collections/test-helpers';
import { MemoryStore } from '../testing/memory-store';
import { FaultyStore, keyOf, seededRandom, signed, transfer } from '../testing/chain-kit';
import { ALICE, BOB, CHARLIE, DAVE } from '../testing/harness';
import type { QueryTx, Store } from '../store';
import type { SignerPayloadJSON } from '../../codec/payload';
import type { Call } from '../types';
import type { BlockMode } from './config';
import { Ledger, type LedgerOptions } from './ledger';
import type { LedgerReads } from './reads';
import { TransactionPool } from './pool';
import { GATHER_MS, STREAM_GATHER_MS } from './sealer';
import { RULE_SETS } from '../rules';

const manual: BlockMode = { kind: 'manual' };

/** Every table of `store` (typed through the Store port). */
const rows = (store: Store) => store.dump();

function open(store: Store, options: Partial<LedgerOptions> = {}) {
  return Ledger.open({ store, blockMode: manual, soleWriter: true, ...options });
}

/** Every spelling of one account: SS58 of other prefixes, lower- and upper-case hex public key. */
function respellings(address: string): string[] {
  const pk = publicKeyOf(address);
  return [encodeAddress(pk, 0), encodeAddress(pk, 2), toHex(pk).toLowerCase(), `0x${toHex(pk).slice(2).toUpperCase()}`];
}

async function balanceOf(ledger: Ledger, address: string): Promise<bigint> {
  return ledger.read(async (tx) => (await tx.get('accounts', address))?.free ?? 0n);
}

/** Run `call` signed by `seed` and wait for its block (manual mode: seals it). */
async function run(ledger: Ledger, seed: string, call: Call) {
  const { address, key } = keyOf(seed);
  const submitted = await ledger.signAndSubmit(address, call, key);
  if (ledger.blockMode.kind === 'manual') await ledger.sealBlock();
  const record = await submitted.included;
  if (record.isError) throw new Error(`${call.name} failed: ${JSON.stringify(record.error)}`);
  return record;
}

describe('one account per key', () => {
  for (const soleWriter of [true, false]) {
    it(`includes a signed extrinsic once however its signer is spelled (${soleWriter ? 'sole writer' : 'shared store'})`, async () => {
      const ledger = await open(new MemoryStore(), { soleWriter });
      const { json, signature } = await signed(ledger, '//Alice', transfer(BOB, 5n));
      const bobBefore = await balanceOf(ledger, BOB);
      const first = await ledger.submit(json, signature);
      for (const address of respellings(ALICE)) {
        await expect(ledger.submit({ ...json, address }, signature)).rejects.toThrow(/Already Imported.*waiting/);
      }
      await ledger.sealBlock();
      expect((await first.included).status).toBe('InBlock');
      for (const address of [ALICE, ...respellings(ALICE)]) {
        await expect(ledger.submit({ ...json, address }, signature)).rejects.toThrow(/already included/);
      }
      expect(await balanceOf(ledger, BOB)).toBe(bobBefore + 5n);
      expect(await ledger.nextNonce(ALICE)).toBe(1);
      const record = await ledger.status(first.hash);
      expect(record).toMatchObject({ signer: ALICE, status: 'InBlock' });
      ledger.close();
    });
  }

  it('a sponsored extrinsic is sponsored once however its signer is spelled', async () => {
    const ledger = await open(new MemoryStore());
    const zed = keyOf('//Zed');
    await run(ledger, '//Alice', { name: 'unique.createCollectionEx', args: { data: collectionData({}) } } as Call);
    await run(ledger, '//Alice', { name: 'unique.setCollectionSponsor', args: { collectionId: 1, newSponsor: CHARLIE } } as Call);
    await run(ledger, '//Charlie', { name: 'unique.confirmSponsorship', args: { collectionId: 1 } } as Call);
    await run(ledger, '//Alice', { name: 'unique.createItem', args: { collectionId: 1, owner: zed.address, properties: [] } } as Call);
    expect(await balanceOf(ledger, zed.address)).toBe(0n);

    // Zed has no money: only the sponsor can pay. Submitted with every spelling of Zed's key.
    const { json, signature } = await signed(ledger, '//Zed', { name: 'unique.transfer', args: { to: BOB, collectionId: 1, tokenId: 1, value: 1n } } as Call);
    const sponsorBefore = await balanceOf(ledger, CHARLIE);
    const answers = await Promise.allSettled([zed.address, ...respellings(zed.address)].map((address) => ledger.submit({ ...json, address }, signature)));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    await ledger.sealBlock();
    for (const address of respellings(zed.address)) await expect(ledger.submit({ ...json, address }, signature)).rejects.toThrow(/already included/);
    const fee = ledger.inclusionFee(json && ledger.decodePayloadCall(json), 0);
    expect(await balanceOf(ledger, CHARLIE)).toBe(sponsorBefore - fee);
    const owner = await ledger.read((tx) => tx.get('tokens', [1, 1]));
    expect(owner?.owner).toBe(BOB);
    const records = (await rows(ledger.store)).extrinsics.filter((r) => r.signer === zed.address);
    expect(records.map((r) => [r.status, r.feePayer])).toEqual([['InBlock', CHARLIE]]);
    ledger.close();
  });

  it('checks signatures with the verify option, given the canonical signer', async () => {
    const seen: string[] = [];
    const ledger = await open(new MemoryStore(), {
      verify: async (_message, _signature, signer) => {
        seen.push(signer);
        return false;
      }
    });
    const { json, signature } = await signed(ledger, '//Alice', transfer(BOB, 1n));
    await expect(ledger.submit({ ...json, address: respellings(ALICE)[2] }, signature)).rejects.toMatchObject({ kind: 'BadSignature' });
    expect(seen).toEqual([ALICE]);
    ledger.close();
  });

  it('builds for the canonical account whatever the spelling', async () => {
    const ledger = await open(new MemoryStore());
    await ledger.signAndSubmit(ALICE, transfer(BOB, 1n), keyOf('//Alice').key);
    for (const address of respellings(ALICE)) {
      const built = await ledger.build(address, transfer(BOB, 1n));
      expect(built.signerPayloadJSON.address).toBe(ALICE);
      expect(Number.parseInt(built.signerPayloadJSON.nonce, 16)).toBe(1);
    }
    ledger.close();
  });
});

describe('nonces count the pool', () => {
  it('answers the next nonce after the waiting ones, and refuses gaps and reused nonces', async () => {
    const ledger = await open(new MemoryStore());
    const alice = keyOf('//Alice');
    expect(await ledger.nextNonce(ALICE)).toBe(0);
    await ledger.signAndSubmit(ALICE, transfer(BOB, 1n), alice.key);
    await ledger.signAndSubmit(ALICE, transfer(BOB, 2n), alice.key);
    expect(await ledger.nextNonce(ALICE)).toBe(2);
    expect(await ledger.nextNonce(respellings(ALICE)[3])).toBe(2);
    const ahead = await signed(ledger, '//Alice', transfer(BOB, 3n), 5);
    await expect(ledger.submit(ahead.json, ahead.signature)).rejects.toThrow(/ahead of the next nonce 2/);
    const reused = await signed(ledger, '//Alice', transfer(BOB, 4n), 1);
    await expect(ledger.submit(reused.json, reused.signature)).rejects.toThrow(/nonce 1 is already waiting/);
    await ledger.sealBlock();
    expect(await ledger.nextNonce(ALICE)).toBe(2);
    ledger.close();
  });

  it('refuses a payload its chain checks and its pool checks both refuse for the payload first', async () => {
    for (const soleWriter of [true, false]) {
      const ledger = await open(new MemoryStore(), { soleWriter });
      const alice = keyOf('//Alice');
      await ledger.signAndSubmit(ALICE, transfer(BOB, 1n), alice.key);
      // Nonce 0 is waiting already, and the era's block hash is not this chain's.
      const built = (await ledger.build(ALICE, transfer(BOB, 2n), { nonce: 0 })).signerPayloadJSON;
      const json = { ...built, blockHash: `0x${'ab'.repeat(32)}` };
      const signature = signMessage(alice.pair, ledger.signingMessage(json));
      await expect(ledger.submit(json, signature)).rejects.toThrow(/blockHash does not match/);
      await expect(ledger.submit(built, signMessage(alice.pair, ledger.signingMessage(built)))).rejects.toThrow(/nonce 0 is already waiting/);
      ledger.close();
    }
  });

  it('says a mortal payload older than its era is outdated, and a checkpoint the chain does not have is a mismatch', async () => {
    const ledger = await open(new MemoryStore());
    const alice = keyOf('//Alice');
    const built = (await ledger.build(ALICE, transfer(BOB, 1n))).signerPayloadJSON;
    // An era of 4 blocks from the block it was built at; then 5 more blocks.
    const json = { ...built, era: toHex(encodeMortalEra(4, Number.parseInt(built.blockNumber, 16))) };
    for (let i = 1; i <= 5; i++) await ledger.setBalance(CHARLIE, BigInt(i));
    await expect(ledger.submit(json, signMessage(alice.pair, ledger.signingMessage(json)))).rejects.toThrow(
      /^Transaction is outdated: its mortal era began at block 0 and ended with block 3; build it again$/
    );
    const elsewhere = { ...json, blockHash: `0x${'cd'.repeat(32)}` };
    await expect(ledger.submit(elsewhere, signMessage(alice.pair, ledger.signingMessage(elsewhere)))).rejects.toThrow(/^Invalid transaction: blockHash does not match block 4, where the era begins$/);
    ledger.close();
  });

  it('gives concurrent custodial submissions of one account consecutive nonces', async () => {
    const ledger = await open(new MemoryStore(), { blockMode: { kind: 'instant' } });
    const alice = keyOf('//Alice');
    const submitted = await Promise.all(Array.from({ length: 64 }, (_, i) => ledger.signAndSubmit(ALICE, transfer(BOB, BigInt(i + 1)), alice.key)));
    const records = await Promise.all(submitted.map((s) => s.included));
    expect(records.map((r) => r.nonce).sort((a, b) => a - b)).toEqual(Array.from({ length: 64 }, (_, i) => i));
    expect(records.every((r) => r.status === 'InBlock')).toBe(true);
    ledger.close();
  });
});

describe('shared-store reads the pool must agree with', () => {
  /** A MemoryStore whose reads, once `hold` is called, finish only at `release` (before or after their state is taken). */
  class HeldReads extends MemoryStore {
    reads = 0;
    private held: Promise<void> | null = null;
    private open = () => {};
    constructor(private readonly takeStateFirst: boolean) {
      super();
    }
    hold(): void {
      this.held = new Promise((resolve) => (this.open = resolve));
    }
    release(): void {
      this.open();
      this.held = null;
    }
    override async read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
      this.reads++;
      const held = this.held;
      if (!held) return super.read(fn);
      if (this.takeStateFirst) return super.read(async (tx) => { const value = await fn(tx); await held; return value; });
      await held; // waits, as a read transaction waits for a block's write, and sees the block
      return super.read(fn);
    }
  }

  for (const sawBlock of [true, false]) {
    it(`reads once when a block of this ledger committed meanwhile and the read ${sawBlock ? 'saw it as the head' : 'did not see it: again'}`, async () => {
      const store = new HeldReads(!sawBlock);
      const ledger = await open(store, { soleWriter: false });
      const alice = keyOf('//Alice');
      await ledger.signAndSubmit(ALICE, transfer(BOB, 1n), alice.key);
      store.hold();
      const reads = store.reads;
      const built = ledger.build(ALICE, transfer(BOB, 2n));
      const sealed = await ledger.sealBlock();
      store.release();
      const payload = await built;
      expect(store.reads - reads).toBe(sawBlock ? 1 : 2);
      expect(payload.signerPayloadJSON.nonce).toBe('0x00000001');
      expect(payload.signerPayloadJSON.blockHash).toBe(sealed!.hash);
      ledger.close();
    });
  }
});

describe('the persistent pool', () => {
  it('keeps waiting extrinsics across a reopen of the same store, then includes them', async () => {
    const store = new MemoryStore();
    const first = await open(store);
    const alice = keyOf('//Alice');
    const hashes: string[] = [];
    for (let i = 0; i < 3; i++) hashes.push((await first.signAndSubmit(ALICE, transfer(BOB, 1n), alice.key)).hash);
    first.close();
    expect((await rows(store)).pool).toHaveLength(3);

    const second = await open(store);
    for (const hash of hashes) expect(await second.status(hash)).toMatchObject({ status: 'Ready', signer: ALICE });
    expect(await second.nextNonce(ALICE)).toBe(3);
    await second.sealBlock();
    for (const hash of hashes) expect(await second.status(hash)).toMatchObject({ status: 'InBlock', blockNumber: 1 });
    expect((await rows(store)).pool).toHaveLength(0);
    second.close();
  });

  it('commits admissions that arrive together in shared store writes (group commit)', async () => {
    const store = new MemoryStore();
    const ledger = await open(store);
    let writes = 0;
    const write = store.write.bind(store);
    store.write = (fn) => {
      writes++;
      return write(fn);
    };
    const seeds = ['//Alice', '//Bob', '//Charlie', '//Dave'];
    const submitted = await Promise.all(Array.from({ length: 64 }, (_, i) => ledger.signAndSubmit(keyOf(seeds[i % 4]).address, transfer(BOB, 1n), keyOf(seeds[i % 4]).key)));
    expect((await rows(store)).pool).toHaveLength(64);
    expect(writes).toBeLessThanOrEqual(submitted.length / 2);
    ledger.close();
  });

  it('in instant mode, seals what it found waiting soon after opening', async () => {
    const store = new MemoryStore();
    const first = await open(store);
    const { hash } = await first.signAndSubmit(ALICE, transfer(BOB, 1n), keyOf('//Alice').key);
    first.close();
    const second = await Ledger.open({ store, soleWriter: true });
    await new Promise<void>((resolve) => second.onBlock(() => resolve()));
    expect(await second.status(hash)).toMatchObject({ status: 'InBlock' });
    second.close();
  });

  it('refuses what an account cannot pay for, counting its waiting fees', async () => {
    const ledger = await open(new MemoryStore());
    const zed = keyOf('//Zed');
    const fee = ledger.inclusionFee(transfer(BOB, 0n), 0);
    await run(ledger, '//Alice', transfer(zed.address, (fee * 5n) / 2n));
    await ledger.signAndSubmit(zed.address, transfer(BOB, 0n), zed.key);
    await ledger.signAndSubmit(zed.address, transfer(BOB, 0n), zed.key);
    await expect(ledger.signAndSubmit(zed.address, transfer(BOB, 0n), zed.key)).rejects.toThrow(/Inability to pay some fees/);
    expect((await rows(ledger.store)).pool).toHaveLength(2);
    ledger.close();
  });

  it('refuses beyond its total size: the pool is full', async () => {
    const store = new MemoryStore();
    const ledger = await open(store);
    const pool = new TransactionPool((fn) => store.write(fn), false, { size: 2, perAccount: 2 });
    const rules = RULE_SETS.spec;
    for (let nonce = 0; nonce < 3; nonce++) {
      const candidate = { hash: `0x${String(nonce).padStart(64, '0')}`, signer: ALICE, nonce, call: transfer(BOB, 1n), fee: 1n };
      const check = store.read((tx) => pool.check(tx, candidate, 1, rules));
      if (nonce < 2) {
        await check;
        const entry = { ...candidate, validUntil: 100, createdAt: 0, committed: false, sealing: false, failedBlocks: 0 };
        pool.add(entry);
        await pool.persist(entry);
      } else {
        await expect(check).rejects.toMatchObject({ kind: 'PoolBusy', message: expect.stringMatching(/pool is full \(2 of 2 waiting\)/) });
      }
    }
    expect((await rows(store)).pool).toHaveLength(2);
    ledger.close();
  });

  it('records a refusal at inclusion as a definite Invalid status, kept across a reopen', async () => {
    const store = new MemoryStore();
    const ledger = await open(store);
    const zed = keyOf('//Zed');
    const fee = ledger.inclusionFee(transfer(BOB, 0n), 1);
    const spendingFee = ledger.inclusionFee(transfer(BOB, fee), 0);
    await run(ledger, '//Alice', transfer(zed.address, spendingFee + fee));
    // The first spends what the second's fee needed: admitted (two fees fit), refused in the block.
    const spends = await ledger.signAndSubmit(zed.address, transfer(BOB, fee), zed.key);
    const starves = await ledger.signAndSubmit(zed.address, transfer(BOB, 0n), zed.key);
    await ledger.sealBlock();
    expect((await spends.included).status).toBe('InBlock');
    await expect(starves.included).rejects.toThrow(/Inability to pay/);
    const expected = { status: 'Invalid', isError: true, isCompleted: true, blockNumber: null, error: { section: 'system', name: 'Payment' } };
    expect(await ledger.status(starves.hash)).toMatchObject(expected);
    ledger.close();
    const reopened = await open(store);
    expect(await reopened.status(starves.hash)).toMatchObject(expected);
    expect(await reopened.nextNonce(zed.address)).toBe(1);
    reopened.close();
  });

  it('refuses waiting submitters when closed, and keeps their rows for the next open', async () => {
    const store = new MemoryStore();
    const ledger = await open(store);
    const waiting = await ledger.signAndSubmit(ALICE, transfer(BOB, 1n), keyOf('//Alice').key);
    ledger.close();
    await expect(waiting.included).rejects.toThrow(/closed or replaced/);
    expect((await rows(store)).pool.map((r) => r.hash)).toEqual([waiting.hash]);
  });
});

/** A store that records its write transactions and fails the next `failing.count` of them. */
function countingStore() {
  const store = new MemoryStore();
  const writes: ('ok' | 'failed')[] = [];
  const failing = { count: 0 };
  const write = store.write.bind(store);
  store.write = (fn) => {
    if (failing.count > 0) {
      failing.count--;
      writes.push('failed');
      return Promise.reject(new Error('injected write failure'));
    }
    writes.push('ok');
    return write(fn);
  };
  return { store, writes, failing };
}

/** Payloads of one transfer from each of `seeds`, signed before any is submitted. */
const signedTransfers = (ledger: Ledger, seeds: string[]) => Promise.all(seeds.map((s) => signed(ledger, s, transfer(BOB, 1n))));

describe('memoised reads', () => {
  const balanceMemo = (ledger: LedgerReads, counter: { reads: number }) =>
    ledger.memo(
      `balance:${BOB}`,
      async (tx) => {
        counter.reads++;
        return (await tx.get('accounts', BOB))?.free ?? 0n;
      },
      (free) => free
    );

  it('on a shared store, answers from memory while the stored head is unchanged and reads again after another context seals or reverts', async () => {
    const store = new MemoryStore();
    const reader = await open(store, { soleWriter: false });
    const writer = await open(store, { soleWriter: false });
    const counter = { reads: 0 };
    const before = await balanceMemo(reader, counter);
    expect(await balanceMemo(reader, counter)).toBe(before);
    expect(counter.reads).toBe(1);
    const start = await writer.head();
    await run(writer, '//Alice', transfer(BOB, 5n));
    expect(await balanceMemo(reader, counter)).toBe(before + 5n);
    expect(counter.reads).toBe(2);
    await writer.revert(start);
    expect(await balanceMemo(reader, counter)).toBe(before);
    expect(counter.reads).toBe(3);
  });

  it('at an earlier block, answers from memory while that block is readable, and refuses once a revert took it away', async () => {
    const ledger = await open(new MemoryStore());
    const start = await ledger.head();
    await run(ledger, '//Alice', transfer(BOB, 5n));
    const block = await ledger.head();
    await run(ledger, '//Alice', transfer(BOB, 5n));
    const counter = { reads: 0 };
    const reads = await ledger.atBlock(block.hash);
    const then = await balanceMemo(reads, counter);
    expect(await balanceMemo(await ledger.atBlock(block.hash), counter)).toBe(then);
    expect(counter.reads).toBe(1);
    await ledger.revert(start);
    // The remembered answer is not given: the block is checked again, and is gone.
    await expect(balanceMemo(reads, counter)).rejects.toThrow(/not a block of this ledger/);
  });

  it('on a sole writer, answers from memory until its next block', async () => {
    const ledger = await open(new MemoryStore());
    const counter = { reads: 0 };
    const before = await balanceMemo(ledger, counter);
    await balanceMemo(ledger, counter);
    expect(counter.reads).toBe(1);
    await run(ledger, '//Alice', transfer(BOB, 5n));
    expect(await balanceMemo(ledger, counter)).toBe(before + 5n);
    expect(counter.reads).toBe(2);
  });
});

/** Under fake timers: switch to instant blocks and submit `payloads` together; the number of the block they share. */
async function instantBlockOf(ledger: Ledger, payloads: { json: SignerPayloadJSON; signature: string }[]): Promise<number | null> {
  ledger.setBlockMode({ kind: 'instant' });
  const together = Promise.all(payloads.map(({ json, signature }) => ledger.submit(json, signature).then((s) => s.included)));
  await vi.advanceTimersByTimeAsync(GATHER_MS);
  return (await together)[0].blockNumber;
}

describe('instant blocks', () => {
  const seeds = ['//Alice', '//Charlie', '//Dave', '//Eve', '//Ferdie'];

  it('on a shared store, write no pool row of their own either: one write per block, each submitter answered once it is durable', async () => {
    const { store, writes } = countingStore();
    const ledger = await open(store, { soleWriter: false });
    const payloads = await signedTransfers(ledger, seeds);
    ledger.setBlockMode({ kind: 'instant' });
    const before = writes.length;
    const submitted = await Promise.all(payloads.map(({ json, signature }) => ledger.submit(json, signature)));
    for (const s of submitted) expect((await rows(store)).extrinsics.find((e) => e.hash === s.hash)).toMatchObject({ status: 'InBlock' });
    expect(writes.length - before).toBe(1);
    expect((await rows(store)).pool).toEqual([]);
    ledger.close();
  });

  it('on a shared store, include an extrinsic admitted by two contexts at once a single time, its record kept', async () => {
    const store = new MemoryStore();
    // One writer at a time across contexts, as the Web Lock gives the browser hosts.
    let last: Promise<unknown> = Promise.resolve();
    const writeLock = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = last.then(fn);
      last = run.catch(() => {});
      return run;
    };
    const [tab, worker] = [await open(store, { soleWriter: false, writeLock }), await open(store, { soleWriter: false, writeLock })];
    const { json, signature } = await signed(tab, '//Alice', transfer(BOB, 7n));
    const bobBefore = await balanceOf(tab, BOB);
    tab.setBlockMode({ kind: 'instant' });
    worker.setBlockMode({ kind: 'instant' });
    // Neither context sees the other's admission (no row before its block): both admit it.
    const both = await Promise.all([tab.submit(json, signature), worker.submit(json, signature)]);
    const records = await Promise.all(both.map((s) => s.included));
    expect(records.map((r) => r.status)).toEqual(['InBlock', 'InBlock']);
    const dump = await rows(store);
    expect(dump.extrinsics.filter((e) => e.hash === both[0].hash)).toMatchObject([{ status: 'InBlock', blockNumber: records[0].blockNumber }]);
    expect(dump.blocks.filter((b) => b.extrinsics.includes(both[0].hash))).toHaveLength(1);
    expect(await balanceOf(tab, BOB)).toBe(bobBefore + 7n);
    tab.close();
    worker.close();
  });

  it('puts submissions checked together into one block, written in one transaction, each answered once that block is durable', async () => {
    const { store, writes } = countingStore();
    const ledger = await open(store);
    const payloads = await signedTransfers(ledger, seeds);
    ledger.setBlockMode({ kind: 'instant' });
    const before = writes.length;
    const submitted = await Promise.all(payloads.map(({ json, signature }) => ledger.submit(json, signature)));
    // Answered only now: the block is durable, so every hash already has its final status.
    for (const s of submitted) expect(await ledger.status(s.hash)).toMatchObject({ status: 'InBlock', blockNumber: 1 });
    expect(writes.length - before).toBe(1); // no pool row written on its own, one block
    const dump = await rows(store);
    expect(dump.blocks.find((b) => b.number === 1)?.extrinsics).toHaveLength(seeds.length);
    expect(dump.pool).toEqual([]);
    ledger.close();
  });

  it('after a block of several, puts submitters arriving a few milliseconds apart (a stream of REST clients) into one next block', async () => {
    const ledger = await open(new MemoryStore());
    const [first, second, ...stream] = await signedTransfers(ledger, seeds);
    // The ledger's clock alone moves time here, so a loaded machine cannot stretch the gaps.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const blockNumber = await instantBlockOf(ledger, [first, second]);
      // Each arrives 5 ms after the one before (more than GATHER_MS), all within STREAM_GATHER_MS
      // of the block; a submit answers once its block is durable, so none is awaited meanwhile.
      const submitted = [];
      for (const { json, signature } of stream) {
        submitted.push(ledger.submit(json, signature).then((s) => s.included));
        await vi.advanceTimersByTimeAsync(5);
      }
      await vi.advanceTimersByTimeAsync(STREAM_GATHER_MS);
      const records = await Promise.all(submitted);
      expect(records.map((r) => r.blockNumber)).toEqual(stream.map(() => blockNumber! + 1));
    } finally {
      vi.useRealTimers();
      ledger.close();
    }
  });

  it('on a shared store (a browser), does not keep the block after one of several waiting for a stream', async () => {
    const ledger = await open(new MemoryStore(), { soleWriter: false });
    const [first, second, next] = await signedTransfers(ledger, seeds);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const blockNumber = await instantBlockOf(ledger, [first, second]);
      let included: number | null = null;
      void ledger.submit(next.json, next.signature).then((s) => s.included).then((r) => (included = r.blockNumber));
      await vi.advanceTimersByTimeAsync(GATHER_MS);
      expect(included).toBe(blockNumber! + 1);
    } finally {
      vi.useRealTimers();
      ledger.close();
    }
  });

  it('writes the rows of a failed block on their own: the extrinsics wait (Ready) and go into the next block', async () => {
    const { store, writes, failing } = countingStore();
    const ledger = await open(store, { blockMode: { kind: 'instant' }, log: vi.fn() });
    const before = writes.length;
    failing.count = 1;
    const submitted = await ledger.signAndSubmit(ALICE, transfer(BOB, 1n), keyOf('//Alice').key);
    expect(writes.slice(before)).toEqual(['failed', 'ok']); // the block, then the row on its own
    expect(await ledger.status(submitted.hash)).toMatchObject({ status: 'Ready' });
    expect((await submitted.included).status).toBe('InBlock');
    expect(await ledger.nextNonce(ALICE)).toBe(1);
    expect((await rows(store)).pool).toEqual([]);
    ledger.close();
  });

  it('refuses a submitter whose block and row both failed to be written, leaving nothing behind', async () => {
    const { store, failing } = countingStore();
    const ledger = await open(store, { blockMode: { kind: 'instant' }, log: vi.fn() });
    const { json, signature } = await signed(ledger, '//Alice', transfer(BOB, 1n));
    failing.count = 2;
    await expect(ledger.submit(json, signature)).rejects.toThrow(/injected write failure/);
    const dump = await rows(store);
    expect(dump.pool).toEqual([]);
    expect(dump.extrinsics).toEqual([]);
    expect(await ledger.nextNonce(ALICE)).toBe(0);
    // The same payload is accepted again once the store writes.
    expect((await (await ledger.submit(json, signature)).included).status).toBe('InBlock');
    ledger.close();
  });

  it('writes deferred rows when blocks stop being instant, so the extrinsics wait durably', async () => {
    const store = new MemoryStore();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The first check waits for the gate, keeping the block gathering while the mode changes.
    let checks = 0;
    const ledger = await open(store, { verify: async () => (checks++ === 0 ? gate.then(() => true) : true) });
    const [first, second] = await signedTransfers(ledger, ['//Alice', '//Charlie']);
    ledger.setBlockMode({ kind: 'instant' });
    const slow = ledger.submit(first.json, first.signature);
    const quick = await Promise.race([ledger.submit(second.json, second.signature).then(() => 'answered' as const), new Promise((r) => setTimeout(() => r('waiting'), 1))]);
    expect(quick).toBe('waiting'); // held for its block, which waits for the check in flight
    ledger.setBlockMode(manual);
    release();
    const answered = await slow;
    await vi.waitFor(async () => expect((await rows(store)).pool).toHaveLength(2));
    expect(await ledger.status(answered.hash)).toMatchObject({ status: 'Ready' });
    await ledger.sealBlock();
    expect((await answered.included).status).toBe('InBlock');
    ledger.close();
  });
});

describe('a signed nonce sequence sent at once', () => {
  for (const soleWriter of [true, false]) {
    it(`admits n+1 checked before n while n is still on its way in, and still refuses a gap nothing fills (${soleWriter ? 'sole writer' : 'shared store'})`, async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      // Nonce 0's signature check waits for the gate, so nonce 1 reaches the pool's check first.
      let checks = 0;
      const ledger = await open(new MemoryStore(), { soleWriter, blockMode: { kind: 'instant' }, verify: async () => (checks++ === 0 ? gate.then(() => true) : true) });
      const [first, second, far] = [
        await signed(ledger, '//Alice', transfer(BOB, 1n), 0),
        await signed(ledger, '//Alice', transfer(BOB, 2n), 1),
        await signed(ledger, '//Alice', transfer(BOB, 3n), 9)
      ];
      const zero = ledger.submit(first.json, first.signature);
      const one = ledger.submit(second.json, second.signature);
      // A gap the submissions in flight leave open is refused once they are in.
      const gap = ledger.submit(far.json, far.signature);
      const gapRefused = expect(gap).rejects.toMatchObject({ details: { reason: 'Future' } });
      release();
      const [a, b] = await Promise.all([zero, one]);
      await gapRefused;
      const records = await Promise.all([a.included, b.included]);
      expect(records.map((r) => [r.nonce, r.status])).toEqual([[0, 'InBlock'], [1, 'InBlock']]);
      expect(await ledger.nextNonce(ALICE)).toBe(2);
      ledger.close();
    });
  }

  it('refuses n+1 when n fails its check: the gap stays', async () => {
    let forged = '';
    const ledger = await open(new MemoryStore(), { blockMode: { kind: 'instant' }, verify: async (_m, signature) => signature !== forged });
    const first = await signed(ledger, '//Alice', transfer(BOB, 1n), 0);
    const second = await signed(ledger, '//Alice', transfer(BOB, 2n), 1);
    forged = `0x01${'ab'.repeat(64)}`;
    const [zero, one] = await Promise.allSettled([ledger.submit(first.json, forged), ledger.submit(second.json, second.signature)]);
    expect(zero).toMatchObject({ status: 'rejected', reason: { kind: 'BadSignature' } });
    expect(one).toMatchObject({ status: 'rejected', reason: { details: { reason: 'Future' } } });
    ledger.close();
  });
});

describe('sealing under store failures', () => {
  it('leaves no partial block and gives every accepted extrinsic a definite status', async () => {
    const seed = Date.now() % 100_000;
    const store = new FaultyStore(new MemoryStore(), seededRandom(seed));
    const log = vi.fn();
    const ledger = await open(store, { blockMode: { kind: 'instant' }, log });
    const issuance = (await rows(store)).accounts.reduce((sum, a) => sum + a.free, 0n);
    store.failRate = 0.04;

    const seeds = ['//Alice', '//Bob', '//Charlie', '//Dave'];
    const dests = [BOB, CHARLIE, DAVE, ALICE];
    const attempts = seeds.flatMap((s, i) => Array.from({ length: 15 }, (_, n) => ({ seed: s, call: transfer(dests[i], BigInt(n + 1)) })));
    const answers = await Promise.allSettled(attempts.map(({ seed: s, call }) => ledger.signAndSubmit(keyOf(s).address, call, keyOf(s).key)));
    const accepted = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    const outcomes = await Promise.allSettled(accepted.map((s) => s.included));
    store.failRate = 0;

    expect(store.injected, `seed ${seed}`).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(0);
    for (const [i, s] of accepted.entries()) {
      const record = await ledger.status(s.hash);
      expect(record, `seed ${seed}`).toBeDefined();
      expect(outcomes[i].status === 'fulfilled' ? ['InBlock', 'Error'] : ['Invalid']).toContain(record!.status);
    }
    const dump = await store.dump();
    expect(dump.pool).toEqual([]);
    // Blocks are whole: numbered without gaps, each listing exactly the records that name it.
    const numbers = dump.blocks.map((b) => b.number).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i));
    for (const block of dump.blocks) {
      const inBlock = dump.extrinsics.filter((r) => r.blockNumber === block.number).map((r) => r.hash);
      expect(new Set(inBlock)).toEqual(new Set(block.extrinsics));
    }
    // Nonces: each account's included extrinsics are 0..n-1, and its stored nonce is n.
    for (const s of seeds) {
      const address = keyOf(s).address;
      const used = dump.extrinsics.filter((r) => r.signer === address && r.blockNumber !== null).map((r) => r.nonce).sort((a, b) => a - b);
      expect(used).toEqual(used.map((_, i) => i));
      expect(dump.accounts.find((a) => a.address === address)?.nonce ?? 0).toBe(used.length);
    }
    expect(dump.accounts.reduce((sum, a) => sum + a.free, 0n)).toBe(issuance);
    ledger.close();
  });

  it('in interval mode, logs a failed block and keeps producing later ones', async () => {
    const store = new FaultyStore();
    // Exactly one block fails: the store heals as the failure is logged, before any retry.
    const log = vi.fn(() => void (store.failRate = 0));
    const ledger = await open(store, { log });
    const submitted = await ledger.signAndSubmit(ALICE, transfer(BOB, 1n), keyOf('//Alice').key);
    store.failRate = 1;
    ledger.setBlockMode({ kind: 'interval', ms: 5 });
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    expect(store.injected).toBe(1);
    expect(log.mock.calls[0]).toEqual([expect.any(String), expect.objectContaining({ message: 'injected write failure' })]);
    // One failed block is fewer than MAX_FAILED_BLOCKS: the extrinsic waits again and a later block includes it.
    const record = await submitted.included;
    expect(record).toMatchObject({ hash: submitted.hash, status: 'InBlock', isError: false });
    expect(await ledger.status(submitted.hash)).toMatchObject({ status: 'InBlock', blockNumber: record.blockNumber });
    expect(log).toHaveBeenCalledTimes(1);
    const head = (await ledger.head()).number;
    await vi.waitFor(async () => expect((await ledger.head()).number).toBeGreaterThan(head));
    ledger.close();
  });

  it('in manual mode, a failed block throws to its caller and the extrinsics stay waiting', async () => {
    const store = new FaultyStore();
    const ledger = await open(store);
    const submitted = await ledger.signAndSubmit(ALICE, transfer(BOB, 1n), keyOf('//Alice').key);
    store.failRate = 1;
    await expect(ledger.sealBlock()).rejects.toThrow(/injected/);
    expect((await ledger.head()).number).toBe(0);
    expect(await ledger.status(submitted.hash)).toMatchObject({ status: 'Ready' });
    store.failRate = 0;
    await ledger.sealBlock();
    expect((await submitted.included).status).toBe('InBlock');
    ledger.close();
  });
});
