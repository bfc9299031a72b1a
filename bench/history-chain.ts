// The chain that bench/history.ts measures, built through the ledger itself (Ledger.signAndSubmit,
// the custodial path, with the dev keys signing on wasm sr25519), on whatever store the Ledger has:
// SQLite in Node, IndexedDB in the page (bench/history-page.ts bundles this file).
//
//   setup      10 senders funded by //Alice, one collection with one token (never changed after)
//   part A     `singleBlocks` blocks of one transfer each (//Alice → //Bob, instant blocks)
//   snapshot   the block to read at and to revert to ("1,000 blocks back")
//   part B     `batchBlocks` blocks of `perBlock` transfers each (the senders → //Bob, manual blocks)
//
// So //Bob's balance changes in every block after the snapshot (perBlock times), the token never.
import { DEV_PHRASE } from '@polkadot/keyring';
import { u8aToHex } from '@polkadot/util';
import { keyExtractSuri, keyFromPath, mnemonicToMiniSecret, sr25519PairFromSeed } from '@polkadot/util-crypto';
import { sr25519Sign } from '@polkadot/wasm-crypto';
import { pairFromSeed } from '../src/lib/codec/signature';
import type { Head } from '../src/lib/ledger/chain/block';
import type { CustodialKey, Ledger } from '../src/lib/ledger/chain/ledger';
import type { Call } from '../src/lib/ledger/types';

export interface ChainPlan {
  singleBlocks: number;
  batchBlocks: number;
  perBlock: number;
}

export interface BuiltChain {
  collectionId: number;
  tokenId: number;
  /** The account whose balance changes in every block after the snapshot. */
  busy: string;
  /** Its balance (smallest unit, decimal) at the snapshot's block. */
  busyBalanceThen: string;
  /** The head when the snapshot was taken (the block read at, and reverted to). */
  snapshot: Head & { snapshotId: string };
  head: Head;
  transfers: number;
  ms: number;
}

export const SENDERS = 10;
const UNIT = 10n ** 18n;

/** A dev key (`//Alice`…) that signs on wasm sr25519 (the keyring's JS signer is several times slower). */
export function devKey(uri: string): CustodialKey & { address: string } {
  const { password, path, phrase } = keyExtractSuri(DEV_PHRASE + uri);
  const { publicKey, secretKey } = keyFromPath(sr25519PairFromSeed(mnemonicToMiniSecret(phrase, password)), path, 'sr25519');
  return { address: pairFromSeed(uri).address, publicKey, sign: (message) => `0x01${u8aToHex(sr25519Sign(publicKey, secretKey, message)).slice(2)}` };
}

const transfer = (dest: string, value: bigint) => ({ name: 'balances.transferKeepAlive', args: { dest, value } }) as unknown as Call;

/** `handle` answers REST requests on this ledger (custodial `Seed //Alice` for the collection and token). */
export async function buildChain(ledger: Ledger, handle: (request: Request) => Promise<Response>, plan: ChainPlan, base = 'http://bench.local/sandbox/v1'): Promise<BuiltChain> {
  const started = performance.now();
  const alice = devKey('//Alice');
  const bob = pairFromSeed('//Bob').address;
  const senders = Array.from({ length: SENDERS }, (_, i) => devKey(`//HistorySender${i}`));
  let transfers = 0;
  const included = async (submitted: Promise<{ included: Promise<{ isError: boolean; error: unknown }> }>) => {
    const record = await (await submitted).included;
    if (record.isError) throw new Error(`a transfer of the bench chain failed: ${JSON.stringify(record.error)}`);
    transfers++;
  };
  const post = async (path: string, body: unknown) => {
    const res = await handle(new Request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' }, body: JSON.stringify(body) }));
    const json = await res.json();
    if (res.status !== 201 || json.isError) throw new Error(`${path} → ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };

  ledger.setBlockMode({ kind: 'instant' });
  for (const s of senders) await included(ledger.signAndSubmit(alice.address, transfer(s.address, 1000n * UNIT), alice));
  const created = await post('/collections?use=Result', { address: alice.address, name: 'History bench', description: 'bench/history.ts', tokenPrefix: 'HIST' });
  const collectionId = created.parsed.collectionId as number;
  const minted = await post('/tokens?use=Result', { address: alice.address, collectionId, data: { name: 'Unchanged', description: 'minted once, never changed' } });
  const tokenId = minted.parsed.tokenId as number;

  for (let i = 0; i < plan.singleBlocks; i++) await included(ledger.signAndSubmit(alice.address, transfer(bob, UNIT), alice));

  const snap = await ledger.snapshot();
  const busyBalanceThen = (await ledger.read((tx) => tx.get('accounts', bob)))?.free.toString() ?? '0';

  ledger.setBlockMode({ kind: 'manual' });
  for (let b = 0; b < plan.batchBlocks; b++) {
    const waiting = senders.slice(0, plan.perBlock).map((s) => ledger.signAndSubmit(s.address, transfer(bob, UNIT / 1000n), s));
    // Admitted (pool rows durable) before the block is sealed; then included by it.
    const submitted = await Promise.all(waiting);
    await ledger.sealBlock();
    await Promise.all(submitted.map((s) => included(Promise.resolve(s))));
  }
  ledger.setBlockMode({ kind: 'instant' });
  return {
    collectionId,
    tokenId,
    busy: bob,
    busyBalanceThen,
    snapshot: { number: snap.blockNumber, hash: snap.blockHash, snapshotId: snap.snapshotId },
    head: await ledger.head(),
    transfers,
    ms: performance.now() - started
  };
}
