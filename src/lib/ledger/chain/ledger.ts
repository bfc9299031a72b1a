// The chain: builds signer payloads, verifies and pools signed extrinsics, produces blocks
// (instant, interval or manual) and answers status. State lives in the injected Store.
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { publicKeyOf } from '../../codec/address';
import { decodeCall, encodeCall } from '../../codec/calls';
import { IMMORTAL_ERA, decodeEra, eraBirth, eraDeath, encodeMortalEra } from '../../codec/era';
import { encodeSignedExtrinsic, extrinsicHash, signedExtrinsicLength } from '../../codec/extrinsic';
import { fromHex } from '../../codec/hash';
import {
  PayloadError,
  buildSignerPayloadJSON,
  encodeExtrinsicPayload,
  signerPayloadHex,
  signerPayloadRaw,
  type SignerPayloadJSON
} from '../../codec/payload';
import { SignatureFormatError, verifySignature } from '../../codec/signature';
import { loadAccount } from '../balances';
import { NESTING_BUDGET } from '../constants';
import type { DispatchContext } from '../context';
import { dispatchCall } from '../dispatch';
import { DispatchError } from '../errors';
import { META, readMeta } from '../meta';
import { Overlay } from '../overlay';
import { RULE_SETS, type RuleSet, type RuleSetName } from '../rules';
import type { QueryTx, Store } from '../store';
import type { Address, BlockRecord, Call, DispatchErrorInfo, ExtrinsicRecord } from '../types';
import { produceBlock, type Head, type InclusionResult, type PendingExtrinsic } from './block';
import type { BlockMode, ChainConfig } from './config';
import { TransactionError } from './errors';
import { inclusionFee, totalCost } from './fees';
import { writeGenesis } from './genesis';
import { chooseFeePayer } from './sponsorship';

export interface LedgerOptions {
  store: Store;
  /** Used only when the store holds no chain yet. */
  rules?: RuleSetName;
  network?: string;
  blockMode?: BlockMode;
  now?: () => number;
  randomBytes?: (length: number) => Uint8Array;
  /** Serialises block production across contexts sharing the store (a Web Lock in browsers). */
  writeLock?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** No other context writes to the store (the Node host), so reads may be memoised until the next block. */
  soleWriter?: boolean;
}

/** Memoised reads kept at most; the memo is dropped whole when it grows past this. */
const MEMO_LIMIT = 10_000;

export interface BuiltPayload {
  signerPayloadJSON: SignerPayloadJSON;
  signerPayloadRaw: { address: string; data: string; type: 'payload' };
  signerPayloadHex: string;
  /** Fee plus any deposit, smallest unit. */
  fee: bigint;
}

export interface BuildOptions {
  nonce?: number;
  immortal?: boolean;
}

export interface Submitted {
  hash: string;
  /** Settles when the extrinsic is in a block (or rejected at inclusion). */
  included: Promise<ExtrinsicRecord>;
}

interface Waiting extends PendingExtrinsic {
  settle: (result: InclusionResult) => void;
}

const defaultRandom = (length: number) => crypto.getRandomValues(new Uint8Array(length));

export class Ledger {
  private pool: Waiting[] = [];
  private producing: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly listeners = new Set<(block: BlockRecord) => void>();
  private readonly memoised = new Map<string, Promise<unknown>>();
  private soleWriter = false;
  readonly rules: RuleSet;

  private constructor(
    readonly store: Store,
    readonly config: ChainConfig,
    private blockModeValue: BlockMode,
    private readonly now: () => number,
    private readonly writeLock: <T>(fn: () => Promise<T>) => Promise<T>
  ) {
    this.rules = RULE_SETS[config.rules];
  }

  /** Open the chain in `store`, writing genesis if the store is empty. */
  static async open(options: LedgerOptions): Promise<Ledger> {
    await cryptoWaitReady();
    const now = options.now ?? Date.now;
    const writeLock = options.writeLock ?? ((fn) => fn());
    const config = await writeLock(() =>
      options.store.write(async (tx) => {
        const existing = await readMeta<ChainConfig | null>(tx, META.chainConfig, null);
        if (existing) return existing;
        return writeGenesis(tx, {
          rules: options.rules,
          network: options.network,
          now: now(),
          entropy: (options.randomBytes ?? defaultRandom)(32)
        });
      })
    );
    const ledger = new Ledger(options.store, config, options.blockMode ?? { kind: 'instant' }, now, writeLock);
    ledger.soleWriter = options.soleWriter ?? false;
    ledger.setBlockMode(ledger.blockModeValue);
    return ledger;
  }

  get blockMode(): BlockMode {
    return this.blockModeValue;
  }

  /** Switch block production: instant (default), every `ms`, or only on `sealBlock()`. */
  setBlockMode(mode: BlockMode): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.blockModeValue = mode;
    if (mode.kind === 'interval') this.timer = setInterval(() => void this.sealBlock(), mode.ms);
    if (mode.kind === 'instant') this.schedule();
  }

  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.store.read(fn);
  }

  /**
   * The result of `compute`, remembered until the next block where this ledger is the store's sole
   * writer (state cannot change under it); computed every time otherwise.
   */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.soleWriter) return compute();
    const hit = this.memoised.get(key);
    if (hit) return hit as Promise<T>;
    if (this.memoised.size >= MEMO_LIMIT) this.memoised.clear();
    const value = compute();
    this.memoised.set(key, value);
    value.catch(() => this.memoised.delete(key));
    return value;
  }

  async head(tx?: QueryTx): Promise<Head> {
    const get = (t: QueryTx) => readMeta<Head>(t, 'head', { number: 0, hash: this.config.genesisHash });
    return tx ? get(tx) : this.read(get);
  }

  /** The account's next nonce, counting extrinsics of it already waiting in the pool. */
  async nextNonce(address: Address, tx?: QueryTx): Promise<number> {
    const account = tx ? await loadAccount(tx, address) : await this.read((t) => loadAccount(t, address));
    const pending = this.pool.filter((p) => p.signer === address).map((p) => p.nonce + 1);
    return Math.max(account.nonce, ...pending);
  }

  /** Length-and-weight fee (without deposits) of `call` as an extrinsic with this nonce. */
  inclusionFee(call: Call, nonce: number, immortal = false): bigint {
    const method = encodeCall(call);
    return inclusionFee(call, signedExtrinsicLength(method.length, immortal ? 1 : 2, nonce, 0n));
  }

  /** What `call` costs its signer in all (fee plus any deposit). */
  estimateCost(call: Call, nonce: number, immortal = false): bigint {
    const method = encodeCall(call);
    return totalCost(call, signedExtrinsicLength(method.length, immortal ? 1 : 2, nonce, 0n));
  }

  /** Build the signer payload of `call` for `address`. */
  async build(address: Address, call: Call, options: BuildOptions = {}): Promise<BuiltPayload> {
    return this.read(async (tx) => {
      const head = await this.head(tx);
      const nonce = options.nonce ?? (await this.nextNonce(address, tx));
      const method = encodeCall(call);
      const era = options.immortal ? IMMORTAL_ERA : encodeMortalEra(this.config.eraPeriod, head.number);
      const json = buildSignerPayloadJSON({
        address,
        method,
        nonce,
        era,
        blockHash: options.immortal ? this.config.genesisHash : head.hash,
        blockNumber: head.number,
        genesisHash: this.config.genesisHash,
        specVersion: this.config.specVersion,
        transactionVersion: this.config.transactionVersion
      });
      const payload = encodeExtrinsicPayload(json);
      return {
        signerPayloadJSON: json,
        signerPayloadRaw: signerPayloadRaw(json),
        signerPayloadHex: signerPayloadHex(payload),
        fee: totalCost(call, signedExtrinsicLength(method.length, era.length, nonce, 0n))
      };
    });
  }

  /** Decode the call of a payload (BadPayload if it cannot be). */
  decodePayloadCall(json: SignerPayloadJSON): Call {
    try {
      return decodeCall(fromHex(json.method));
    } catch (e) {
      throw new TransactionError('BadPayload', `signerPayloadJSON.method cannot be decoded: ${(e as Error).message}`);
    }
  }

  /** The exact bytes a signer signs for `json` (the service rebuilds them; it never trusts a client's hex). */
  signingMessage(json: SignerPayloadJSON): Uint8Array {
    try {
      return fromHex(signerPayloadHex(encodeExtrinsicPayload(json)));
    } catch (e) {
      if (e instanceof PayloadError || e instanceof Error) {
        throw new TransactionError('BadPayload', `signerPayloadJSON is not a valid payload: ${e.message}`);
      }
      throw e;
    }
  }

  /** Run `call` against current state without keeping anything: the chain error it would hit, or null. */
  async dryRun(signer: Address, call: Call): Promise<DispatchErrorInfo | null> {
    return this.read(async (tx) => {
      const head = await this.head(tx);
      const overlay = new Overlay(tx);
      const ctx: DispatchContext = {
        state: overlay,
        signer,
        rules: this.rules,
        blockNumber: head.number + 1,
        nestingBudget: { remaining: NESTING_BUDGET },
        emit: () => {},
        events: []
      };
      try {
        await dispatchCall(ctx, call);
        return null;
      } catch (e) {
        if (e instanceof DispatchError) return e.info;
        throw e;
      }
    });
  }

  /**
   * Verify a signed payload and queue it for the next block. Rejections here (bad payload,
   * bad signature, stale or future nonce, dead era, unpayable fee) change nothing.
   */
  async submit(json: SignerPayloadJSON, signature: string, options: { callbackUrl?: string; builtCall?: Call } = {}): Promise<Submitted> {
    const message = this.signingMessage(json);
    // A payload this process just built from `builtCall` needs no decoding; any other is decoded.
    const call = options.builtCall ?? this.decodePayloadCall(json);
    const signer = json.address;
    let valid: boolean;
    try {
      valid = verifySignature(message, signature, signer);
    } catch (e) {
      if (e instanceof SignatureFormatError) throw new TransactionError('BadSignature', e.message);
      throw new TransactionError('BadSignature', (e as Error).message);
    }
    if (!valid) throw new TransactionError('BadSignature', 'Signature does not verify for the payload and the signer address');

    const nonce = Number.parseInt(json.nonce, 16);
    const era = this.checkedEra(json);
    const method = fromHex(json.method);
    const hash = extrinsicHash(
      encodeSignedExtrinsic({ publicKey: publicKeyOf(signer), signature: fromHex(signature), era: fromHex(json.era), nonce, tip: BigInt(json.tip), method })
    );
    const fee = inclusionFee(call, signedExtrinsicLength(method.length, fromHex(json.era).length, nonce, 0n));

    const validUntil = await this.read(async (tx) => {
      const head = await this.head(tx);
      const validUntil = await this.checkEraAgainstChain(tx, json, era, head);
      const account = await loadAccount(tx, signer);
      if (nonce < account.nonce) throw new TransactionError('Invalid', `Transaction is outdated: nonce ${nonce} was already used (next nonce is ${account.nonce})`);
      if (this.pool.some((p) => p.signer === signer && p.nonce === nonce)) {
        throw new TransactionError('Invalid', `A transaction of ${signer} with nonce ${nonce} is already waiting for a block`);
      }
      const next = await this.nextNonce(signer, tx);
      if (nonce > next) throw new TransactionError('Invalid', `Transaction nonce ${nonce} is ahead of the next nonce ${next}: no gaps are allowed`);
      if (account.free < fee) {
        const sponsored = await this.sponsorCanPay(tx, call, signer, fee, head.number + 1);
        if (!sponsored) {
          throw new TransactionError('Invalid', 'Inability to pay some fees (e.g. account balance too low)', { fee: fee.toString(), balance: account.free.toString() });
        }
      }
      return validUntil;
    });

    let settle!: (r: InclusionResult) => void;
    const result = new Promise<InclusionResult>((resolve) => (settle = resolve));
    this.pool.push({ hash, signer, nonce, call, fee, validUntil, createdAt: this.now(), callbackUrl: options.callbackUrl, settle });
    if (this.blockModeValue.kind === 'instant') this.schedule();
    const included = result.then((r) => {
      if ('rejected' in r) throw r.rejected;
      return r.included;
    });
    included.catch(() => {});
    return { hash, included };
  }

  /** The status record of an extrinsic: in a block, waiting in the pool, or unknown. */
  async status(hash: string, tx?: QueryTx): Promise<ExtrinsicRecord | undefined> {
    const stored = await (tx ? tx.get('extrinsics', hash) : this.read((t) => t.get('extrinsics', hash)));
    if (stored) return stored;
    const waiting = this.pool.find((p) => p.hash === hash);
    if (!waiting) return undefined;
    const [section, method] = waiting.call.name.split('.');
    return {
      hash,
      signer: waiting.signer,
      nonce: waiting.nonce,
      callMethod: { section, method },
      call: waiting.call,
      status: 'Ready',
      isCompleted: false,
      isError: false,
      blockNumber: null,
      blockHash: null,
      blockIndex: null,
      events: [],
      error: null,
      fee: waiting.fee.toString(),
      feePayer: waiting.signer,
      createdAt: waiting.createdAt,
      ...(waiting.callbackUrl ? { callbackUrl: waiting.callbackUrl } : {})
    };
  }

  /** Put everything waiting into one new block now (manual and interval modes; also works in instant). */
  async sealBlock(): Promise<BlockRecord | null> {
    await this.producing;
    let produced: BlockRecord | null = null;
    this.producing = this.produce((b) => (produced = b));
    await this.producing;
    return produced;
  }

  /** Called with every new block this ledger produces. */
  onBlock(listener: (block: BlockRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Start producing if idle; what arrives meanwhile is grouped into the next block. */
  private schedule(): void {
    if (this.producing || this.pool.length === 0) return;
    // Each waiting submitter already got the failure; the scheduler itself must not reject.
    this.producing = this.produce()
      .catch(() => {})
      .finally(() => {
        this.producing = null;
        if (this.blockModeValue.kind === 'instant') this.schedule();
      });
  }

  private async produce(onBlock?: (block: BlockRecord) => void): Promise<void> {
    const batch = this.pool;
    this.pool = [];
    try {
      const { block, results } = await this.writeLock(() => this.store.write((tx) => produceBlock(tx, batch, this.rules, this.now())));
      this.memoised.clear();
      for (const p of batch) p.settle(results.get(p.hash) ?? { rejected: new TransactionError('Invalid', 'Transaction was dropped') });
      onBlock?.(block);
      for (const listener of this.listeners) listener(block);
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      for (const p of batch) p.settle({ rejected: Object.assign(new TransactionError('Invalid', `The block could not be written: ${error.message}`), { cause: error }) });
      throw error;
    }
  }

  private checkedEra(json: SignerPayloadJSON) {
    try {
      return decodeEra(fromHex(json.era));
    } catch (e) {
      throw new TransactionError('BadPayload', `signerPayloadJSON.era is invalid: ${(e as Error).message}`);
    }
  }

  /** Genesis, versions and the era's checkpoint block, as Substrate checks them. Returns the last valid block. */
  private async checkEraAgainstChain(tx: QueryTx, json: SignerPayloadJSON, era: ReturnType<typeof decodeEra>, head: Head): Promise<number> {
    if (json.genesisHash.toLowerCase() !== this.config.genesisHash) {
      throw new TransactionError('Invalid', 'Invalid transaction: the genesis hash is not this chain’s (a payload built for another ledger)');
    }
    if (Number.parseInt(json.specVersion, 16) !== this.config.specVersion || Number.parseInt(json.transactionVersion, 16) !== this.config.transactionVersion) {
      throw new TransactionError('Invalid', 'Invalid transaction: spec or transaction version does not match the chain');
    }
    if (era.kind === 'immortal') {
      if (json.blockHash.toLowerCase() !== this.config.genesisHash) throw new TransactionError('Invalid', 'Invalid transaction: an immortal era must be checkpointed at the genesis hash');
      return Number.MAX_SAFE_INTEGER;
    }
    const current = head.number + 1;
    const birth = eraBirth(era, current);
    const death = eraDeath(era, current);
    if (current >= death) throw new TransactionError('Invalid', 'Transaction is outdated: its mortal era has ended');
    const checkpoint = await tx.get('blocks', birth);
    if (!checkpoint || checkpoint.hash !== json.blockHash.toLowerCase()) {
      throw new TransactionError('Invalid', `Invalid transaction: blockHash does not match block ${birth}, where the era begins`);
    }
    return death - 1;
  }

  private async sponsorCanPay(tx: QueryTx, call: Call, signer: Address, fee: bigint, blockNumber: number): Promise<boolean> {
    const payer = await chooseFeePayer(tx, call, signer, fee, blockNumber, this.rules);
    return payer.payer !== signer;
  }
}
