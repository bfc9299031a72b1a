// What the sole writer of a store answers from memory: the head, account nonces and recent
// statuses, kept true by each block commit, so builds and status reads never wait on a block
// write. A shared store (browser tabs) keeps none of it and reads the store instead.
import type { Address, BlockRecord, ExtrinsicRecord } from '../types';
import type { Head } from './block';
import type { Sealed } from './sealer';

/** Status records of recent blocks kept at most. */
const RECENT_LIMIT = 10_000;
/** Account nonces kept at most; dropped whole past this. */
const NONCE_LIMIT = 100_000;
/** Latest blocks kept, so a status asked for just after its block is answered without a read. */
const BLOCK_LIMIT = 64;

export class CommittedState {
  head: Head | null = null;
  private readonly nonces = new Map<Address, number>();
  private readonly recent = new Map<string, ExtrinsicRecord>();
  private readonly blocks = new Map<number, BlockRecord>();
  /** Bumped by each block commit, so a store read that raced a block is not remembered. */
  generation = 0;
  /** The head hash this ledger last moved the store to (its latest block, or a revert), kept by every store. */
  lastHead: string | null = null;

  constructor(readonly enabled: boolean) {}

  nonceOf(account: Address): number | undefined {
    return this.nonces.get(account);
  }

  /** Remember a stored nonce read while generation `seenAt` was current (dropped if a block came since). */
  rememberNonce(account: Address, nonce: number, seenAt: number): void {
    if (!this.enabled || seenAt !== this.generation) return;
    if (this.nonces.size >= NONCE_LIMIT) this.nonces.clear();
    this.nonces.set(account, nonce);
  }

  statusOf(hash: string): ExtrinsicRecord | undefined {
    return this.recent.get(hash);
  }

  /** One of the latest BLOCK_LIMIT blocks, if kept. */
  blockOf(number: number): BlockRecord | undefined {
    return this.blocks.get(number);
  }

  /** The store was reverted to `head`: forget every nonce and status; the store answers them again. */
  reset(head: Head): void {
    this.generation++;
    this.lastHead = head.hash;
    this.nonces.clear();
    this.recent.clear();
    this.blocks.clear();
    if (this.enabled) this.head = head;
  }

  /** A block is durable: move head, nonces and statuses up to it. */
  apply({ block, records }: Sealed): void {
    this.generation++;
    this.lastHead = block.hash;
    if (!this.enabled) return;
    this.head = { number: block.number, hash: block.hash };
    this.blocks.set(block.number, block);
    // Blocks come in number order: the first key is the oldest.
    if (this.blocks.size > BLOCK_LIMIT) this.blocks.delete(this.blocks.keys().next().value!);
    for (const record of records) {
      // Records come in batch order, not nonce order (a reloaded or retried pool): never step back.
      if (record.blockNumber !== null) this.nonces.set(record.signer, Math.max(this.nonces.get(record.signer) ?? 0, record.nonce + 1));
      this.recent.delete(record.hash);
      this.recent.set(record.hash, record);
    }
    // A Map iterates oldest first: drop from the front past the limit.
    for (const hash of this.recent.keys()) {
      if (this.recent.size <= RECENT_LIMIT) break;
      this.recent.delete(hash);
    }
  }
}
