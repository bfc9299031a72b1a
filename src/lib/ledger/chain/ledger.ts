// The chain's facade: opens a store, builds payloads, admits signed extrinsics into the pool and
// has the sealer put them into blocks (instant, interval or manual). The work lives beside it:
// payload-builder.ts, signature-check.ts, pool.ts, sealer.ts.
import { u8aEq } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { LruCache } from '../../codec/lru';
import { publicKeyOf } from '../../codec/address';
import { encodeCall } from '../../codec/calls';
import { signedExtrinsicLength } from '../../codec/extrinsic';
import type { ForkOrigin } from '../fork/source';
import type { SignerPayloadJSON } from '../../codec/payload';
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
import type { Head, InclusionResult } from './block';
import type { BlockMode, ChainConfig } from './config';
import { TransactionError } from './errors';
import { refuseUndecodable } from './decodable';
import { inclusionFee, totalCost } from './fees';
import { writeGenesis } from './genesis';
import { CommittedState } from './committed-state';
import { KeyedSerial } from './keyed-serial';
import { Arrivals } from './arrivals';
import { buildPayload, checkPayloadAgainstChain, decodePayloadCall, payloadEra, payloadTip, checkedCall, messageToSign, signedExtrinsicOf, signingMessage, type BuiltPayload } from './payload-builder';
import { TransactionPool, droppedRecord, readyRecord, type Waiting } from './pool';
import { resolvePoolLimits, type PoolLimits } from './pool-limits';
import { Sealer, type Sealed } from './sealer';
import { canonicalAccount, canonicalSigner, checkSignature, verifyInline, type SignatureVerifier } from './signature-check';
import { dryRunPayload, type DryRunResult } from './dry-run';
import type { LedgerReads } from './reads';
import { HistoryError } from '../history/errors';
import { KEEP_ALL_HISTORY, type HistoryPolicy } from '../history/record';
import { LedgerAtBlock, checkReadable } from '../history/ledger-at-block';
import { currentRecord, revertState } from '../history/revert';
import { takeSnapshot, type Snapshot } from '../history/snapshots';
import { IMPERSONATION_SIGNATURE } from '../../codec/impersonation';

export type { BuiltPayload } from './payload-builder';
export type { SignatureVerifier } from './signature-check';

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
  /** Runs first in every write transaction after open; throwing writes nothing (a host checks the stored chain is still its own). */
  beforeWrite?: (tx: QueryTx) => Promise<void>;
  /**
   * No other context writes to the store (the Node host): reads may be memoised until the next
   * block, and head, nonces and recent statuses are answered from memory the block commit keeps true.
   */
  soleWriter?: boolean;
  /** Signature check of submitted payloads (a host may run it off the event loop); default inline. */
  verify?: SignatureVerifier;
  /** Where sealing errors are reported (default console.error). */
  log?: (message: string, error: unknown) => void;
  /** How many blocks of state history to keep below the head (default every block). */
  history?: HistoryPolicy;
  /** Bounds of the waiting pool: `size` in all, each account's guaranteed `perAccount` share (pool-limits.ts; default 8,192 and 64). */
  pool?: Partial<PoolLimits>;
  /** Used only when the store holds no chain yet: the genesis of a fork of this source and block. */
  fork?: ForkOrigin;
}

/** Statuses of dropped extrinsics kept at most: a full default pool, twice. */
const MAX_DROPPED = 16_384;

/** Memoised reads kept at most; the memo is dropped whole when it grows past this. */
const MEMO_LIMIT = 10_000;

export interface BuildOptions {
  nonce?: number;
  immortal?: boolean;
  /** A mortal era's length in blocks (rounded up to a power of two from 4 to 65,536, as Substrate does); the chain's default when absent. */
  eraPeriod?: number;
}

export interface Submitted {
  hash: string;
  /** Settles when the extrinsic is in a block (or refused at inclusion, or dropped). */
  included: Promise<ExtrinsicRecord>;
}

/** A key that signs in this process (custodial signing). */
export interface CustodialKey {
  publicKey: Uint8Array;
  sign(message: Uint8Array): string;
}

/** A submitted payload after its stateless checks: signature, call, hash, fee. */
interface Verified {
  json: SignerPayloadJSON;
  signer: Address;
  call: Call;
  hash: string;
  nonce: number;
  fee: bigint;
  /** Admitted without a signature check: impersonation (the host allowed it). */
  impersonated?: true;
}

export { IMPERSONATION_SIGNATURE };

const defaultRandom = (length: number) => crypto.getRandomValues(new Uint8Array(length));

export class Ledger implements LedgerReads {
  readonly rules: RuleSet;
  private readonly pool: TransactionPool;
  private readonly sealer: Sealer;
  private readonly listeners = new Set<(block: BlockRecord) => void>();
  private readonly memoised = new Map<string, Promise<unknown>>();
  /** Memoised reads of a shared store, each with the head hash it was read at. */
  private readonly memoisedAtHead = new Map<string, { head: string; value: Promise<unknown> }>();
  /** Memoised reads at earlier blocks, by block hash and key (each given after the block is checked again). */
  private readonly memoisedAtBlock = new Map<string, Promise<unknown>>();
  /** Extrinsics ledgers this one replaced dropped while they waited (rememberDropped), the latest MAX_DROPPED, oldest first. */
  private readonly dropped = new Map<string, ExtrinsicRecord>();
  /** Block numbers of hashes read at, recently (a read checks the block again, so this only saves a lookup). */
  private readonly blockNumbers = new LruCache<string, number>(1024);
  /** Admissions of one signer run one at a time, from nonce choice to pool entry. */
  private readonly perSigner = new KeyedSerial<Address>();
  /** Signed submissions on their way into the pool, by signer and nonce (a nonce ahead waits for them). */
  private readonly arrivals = new Arrivals();
  /** Every store write of this ledger, one after another (pool rows and blocks). */
  private writes: Promise<unknown> = Promise.resolve();
  /** Submissions being checked and not yet in the pool (an instant block waits a little for them). */
  private admitting = 0;
  private readonly memory: CommittedState;
  private blockModeValue: BlockMode;
  private historyValue: HistoryPolicy;
  private closed = false;

  private constructor(
    readonly store: Store,
    readonly config: ChainConfig,
    blockMode: BlockMode,
    private readonly now: () => number,
    private readonly writeLock: <T>(fn: () => Promise<T>) => Promise<T>,
    private readonly soleWriter: boolean,
    private readonly verify: SignatureVerifier,
    private readonly log: (message: string, error: unknown) => void,
    poolLimits?: PoolLimits,
    history: HistoryPolicy = KEEP_ALL_HISTORY,
    private readonly beforeWrite?: (tx: QueryTx) => Promise<void>
  ) {
    this.historyValue = history;
    this.rules = RULE_SETS[config.rules];
    this.memory = new CommittedState(soleWriter);
    this.blockModeValue = blockMode;
    this.pool = new TransactionPool((fn) => this.write(fn), !soleWriter, poolLimits, () => this.blockModeValue);
    this.sealer = new Sealer({ pool: this.pool, write: (fn) => this.write(fn), rules: this.rules, history, now, committed: (s) => this.committed(s), admitting: () => this.admitting, shared: !soleWriter, log });
  }

  /** Open the chain in `store`, writing genesis if the store is empty; what waited in its pool waits again. */
  static async open(options: LedgerOptions): Promise<Ledger> {
    const poolLimits = resolvePoolLimits(options.pool); // a bad bound refuses before anything is written
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
          entropy: (options.randomBytes ?? defaultRandom)(32),
          fork: options.fork
        });
      })
    );
    const soleWriter = options.soleWriter ?? false;
    const log = options.log ?? ((message: string, error: unknown) => console.error(message, error));
    const ledger = new Ledger(options.store, config, options.blockMode ?? { kind: 'instant' }, now, writeLock, soleWriter, options.verify ?? verifyInline, log, poolLimits, options.history, options.beforeWrite);
    const [rows, head] = await options.store.read(async (tx) => [await tx.pooled(), await ledger.storedHead(tx)] as const);
    ledger.pool.load(rows);
    if (soleWriter) ledger.memory.head = head;
    ledger.setBlockMode(ledger.blockModeValue);
    return ledger;
  }

  get blockMode(): BlockMode {
    return this.blockModeValue;
  }

  /** Switch block production: instant (default), every `ms`, or only on `sealBlock()`. */
  setBlockMode(mode: BlockMode): void {
    this.blockModeValue = mode;
    this.sealer.setMode(mode);
    // Rows deferred to an instant block that will not come now are written on their own.
    if (mode.kind !== 'instant') this.pool.storeDeferred();
  }

  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.store.read(fn);
  }

  /**
   * `answer` of what `reads` read (in one read transaction), remembered while the state cannot have
   * changed. The sole writer forgets it at its next block. A shared store (the browser's, which
   * other contexts write) keeps it with the head it was read at: a request reads only the stored
   * head, and reads again when the head has moved (a block, a revert, an import).
   */
  memo<R, T>(key: string, reads: (tx: QueryTx) => Promise<R>, answer: (read: R) => T | Promise<T>): Promise<T> {
    if (!this.soleWriter) return this.memoAtHead(key, reads, answer);
    const hit = this.memoised.get(key);
    if (hit) return hit as Promise<T>;
    if (this.memoised.size >= MEMO_LIMIT) this.memoised.clear();
    const value = this.read(reads).then(answer);
    this.memoised.set(key, value);
    value.catch(() => this.memoised.delete(key));
    return value;
  }

  /** Forget every memoised read (the store's rows were replaced under this ledger). */
  forgetReads(): void {
    this.memoised.clear();
    this.memoisedAtHead.clear();
    this.memoisedAtBlock.clear();
  }

  private async memoAtHead<R, T>(key: string, reads: (tx: QueryTx) => Promise<R>, answer: (read: R) => T | Promise<T>): Promise<T> {
    const kept = this.memoisedAtHead.get(key);
    if (kept && (await this.headOnly()).hash === kept.head) return kept.value as Promise<T>;
    // The head and the rows in one transaction, so the answer is filed under the state it is of.
    const [head, read] = await this.read((tx) => Promise.all([this.storedHead(tx), reads(tx)]));
    const value = Promise.resolve(answer(read));
    if (this.memoisedAtHead.size >= MEMO_LIMIT) this.memoisedAtHead.clear();
    this.memoisedAtHead.set(key, { head: head.hash, value });
    value.catch(() => this.memoisedAtHead.delete(key));
    return value;
  }

  /** The head: inside a read, the one that read's state is of (one snapshot for rows and head); else from memory when kept. */
  async head(tx?: QueryTx): Promise<Head> {
    if (tx) return this.storedHead(tx);
    if (this.memory.head) return this.memory.head;
    return this.read((t) => this.storedHead(t));
  }

  /** The account's next nonce: its stored nonce, then every nonce of it waiting in the pool (as system_accountNextIndex). */
  async nextNonce(address: Address, tx?: QueryTx): Promise<number> {
    const signer = canonicalAccount(address);
    const cached = this.memory.nonceOf(signer);
    if (cached !== undefined) return this.pool.nextNonce(signer, cached);
    const generation = this.memory.generation;
    const read = async (t: QueryTx) => {
      const [account, stored] = await Promise.all([loadAccount(t, signer), this.pool.storedNonces(t, signer)]);
      return [account.nonce, stored] as const;
    };
    const [nonce, stored] = tx ? await read(tx) : await this.readWithPool(read);
    this.memory.rememberNonce(signer, nonce, generation);
    return this.pool.nextNonce(signer, nonce, stored);
  }

  /** Length-and-weight fee (without deposits) of `call` as an extrinsic with this nonce. */
  inclusionFee(call: Call, nonce: number, immortal = false): bigint {
    const method = encodeCall(call);
    return inclusionFee(call, signedExtrinsicLength(method.length, immortal ? 1 : 2, nonce, 0n), this.rules);
  }

  /** What `call` costs its signer in all (fee plus any deposit, and the tip, 0 unless given). */
  estimateCost(call: Call, nonce: number, immortal = false, tip = 0n): bigint {
    const method = encodeCall(call);
    return totalCost(call, signedExtrinsicLength(method.length, immortal ? 1 : 2, nonce, tip), this.rules) + tip;
  }

  /** What the payload `json` costs its signer in all: fee, tip and any deposit (`call` is its call, decoded when not given). */
  estimatePayloadCost(json: SignerPayloadJSON, call: Call = this.decodePayloadCall(json)): bigint {
    return this.estimateCost(call, Number.parseInt(json.nonce, 16), json.era === '0x00', payloadTip(json));
  }

  /** Build the signer payload of `call` for `address` (its canonical form). */
  async build(address: Address, call: Call, options: BuildOptions = {}): Promise<BuiltPayload> {
    const signer = canonicalAccount(address);
    const make = async (tx?: QueryTx, stored?: Head) => {
      const head = stored ?? (await this.head(tx));
      const nonce = options.nonce ?? (await this.nextNonce(signer, tx));
      return buildPayload(this.config, head, signer, call, nonce, options, this.rules);
    };
    // The sole writer answers head and nonces from memory; a shared store is read in one transaction.
    return this.soleWriter ? make() : this.readWithPool(make);
  }

  /** Decode the call of a payload (BadPayload if it cannot be). */
  decodePayloadCall(json: SignerPayloadJSON): Call {
    return decodePayloadCall(json);
  }

  /** The exact bytes a signature of `json` must cover (the service rebuilds them; it never trusts a client's hex). */
  signingMessage(json: SignerPayloadJSON): Uint8Array {
    return signingMessage(this.config, json);
  }

  /** What a custodial key signs for `json`, under the one signing rule (codec/signing-rule.ts). */
  messageToSign(json: SignerPayloadJSON): Uint8Array {
    return messageToSign(this.config, json);
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
   * What `json` would do in the next block now (fee, events, changes), writing nothing. Refused
   * like a signature (400 BadPayload) when the signing rule refuses the payload.
   */
  async dryRunPayload(json: SignerPayloadJSON): Promise<DryRunResult> {
    const call = checkedCall(this.config, json);
    const signer = canonicalSigner(json.address);
    // Read with the pool, so the next nonce counts exactly what waits (as admission would).
    return this.readWithPool(async (tx, head) =>
      dryRunPayload(tx, { json, signer, call, now: this.now(), nextNonce: await this.nextNonce(signer, tx) }, this.config, head, this.rules)
    );
  }

  /**
   * Reads of the state as of the block `blockHash` (HistoryError when unknown or pruned). Which
   * number a hash names is remembered: each read checks, in its own transaction, that the block is
   * still there and readable, so a stale entry (a revert in another context) is refused, not used.
   */
  async atBlock(blockHash: string): Promise<LedgerAtBlock> {
    const hash = blockHash.toLowerCase();
    let number = this.blockNumbers.get(hash);
    if (number === undefined) {
      number = await this.read(async (tx) => {
        const found = await tx.blockByHash(hash);
        if (!found) throw new HistoryError('unknown', `No block with hash ${blockHash} in this ledger`);
        await checkReadable(tx, found);
        return found.number;
      });
      this.blockNumbers.set(hash, number);
    }
    return new LedgerAtBlock(this.store, { number, hash }, this.config, this.rules, this.blockModeValue, this.memoisedAtBlock);
  }

  /** How many blocks of history are kept (from the next block on). */
  get history(): HistoryPolicy {
    return this.historyValue;
  }

  setHistory(policy: HistoryPolicy): void {
    this.historyValue = policy;
    this.sealer.setHistory(policy);
  }

  /** The oldest block whose state can still be read or reverted to. */
  historyStart(): Promise<number> {
    return this.read((tx) => tx.history.start());
  }

  /** A snapshot of the head, to revert to later. */
  snapshot(): Promise<Snapshot> {
    return this.sealer.exclusive(() => this.write((tx) => takeSnapshot(tx, this.now())));
  }

  /**
   * Make the block `to` the head again (see history/revert.ts). Waits for a block being sealed; no
   * block is sealed meanwhile. What waited in the pool is refused (Invalid, Reverted).
   */
  revert(to: Head): Promise<Head> {
    return this.sealer.exclusive(async () => {
      // What waits now is refused with the revert; what is admitted while it runs waits for the
      // next block, whose checks (nonce, era, fee) run against the reverted state.
      const waiting = this.pool.entries();
      const result = await this.write((tx) => revertState(tx, to, waiting));
      const refusal = new TransactionError('Invalid', `Reverted: the ledger was reverted to block ${to.number} before this extrinsic was included`, { reason: 'Reverted' });
      for (const entry of waiting) {
        this.pool.remove(entry.hash);
        entry.durable?.(refusal);
        entry.settle?.({ rejected: refusal });
      }
      const head = { number: result.head.number, hash: result.head.hash };
      this.memory.reset(head);
      this.memoised.clear();
      this.blockNumbers.clear();
      this.tell(result.head);
      return head;
    });
  }

  /**
   * Verify a signed payload and admit it to the pool; answers once it is durable: its pool row
   * committed, or (instant mode) the block holding it.
   * Rejections here (bad payload or signature, stale or future nonce, dead era, duplicate,
   * unpayable fees, full pool) change nothing.
   */
  /**
   * Build, "sign" and submit `call` as `address` without its key: impersonation, a sandbox's dev
   * tool. The host decides whether it is allowed; the extrinsic is marked as impersonated.
   */
  async impersonateAndSubmit(address: Address, call: Call, options: { nonce?: number; callbackUrl?: string } = {}): Promise<Submitted & { signerPayloadJSON: SignerPayloadJSON }> {
    const signer = canonicalSigner(address);
    let json!: SignerPayloadJSON;
    const entry = await this.admission(() =>
      this.perSigner.run(signer, async () => {
        const built = await this.build(signer, call, { nonce: options.nonce });
        json = built.signerPayloadJSON;
        return this.admit({ ...this.verified(json, IMPERSONATION_SIGNATURE, signer, call), impersonated: true }, options.callbackUrl);
      })
    );
    return { ...(await this.persist(entry)), signerPayloadJSON: json };
  }

  /** Submit a payload built here, "signed" by impersonation (use=Sign gave IMPERSONATION_SIGNATURE); the host allowed it. */
  async submitImpersonated(json: SignerPayloadJSON, options: { callbackUrl?: string } = {}): Promise<Submitted> {
    const entry = await this.admission(async () => {
      const call = this.decodePayloadCall(json);
      const signer = canonicalSigner(json.address);
      const verified: Verified = { ...this.verified(json, IMPERSONATION_SIGNATURE, signer, call), impersonated: true };
      return this.admitInTurn(signer, verified.nonce, () => verified, options.callbackUrl);
    });
    return this.persist(entry);
  }

  /** Throws BadSignature unless `signature` signs the payload this ledger rebuilds from `json`, as submit checks it (a fee quote of a signed body does too). */
  async checkSigned(json: SignerPayloadJSON, signature: string): Promise<void> {
    await checkSignature(this.verify, this.signingMessage(json), signature, canonicalSigner(json.address));
  }

  async submit(json: SignerPayloadJSON, signature: string, options: { callbackUrl?: string; builtCall?: Call } = {}): Promise<Submitted> {
    const entry = await this.admission(async () => {
      const message = this.signingMessage(json);
      // A payload this process just built from `builtCall` needs no decoding; any other is decoded.
      const call = options.builtCall ?? this.decodePayloadCall(json);
      const signer = canonicalSigner(json.address);
      return this.admitInTurn(
        signer,
        Number.parseInt(json.nonce, 16),
        async () => (await checkSignature(this.verify, message, signature, signer), this.verified(json, signature, signer, call)),
        options.callbackUrl
      );
    });
    return this.persist(entry);
  }

  /**
   * Verify (`verified`), then admit in the signer's serial section. The submission counts as on its
   * way in (arrivals.ts) from before its check until it is admitted or refused; when its nonce is
   * ahead of the next one while lower nonces of the same signer are on their way in too, it checks
   * again as each settles.
   */
  private async admitInTurn(signer: Address, nonce: number, verified: () => Verified | Promise<Verified>, callbackUrl?: string): Promise<Waiting> {
    const arrival = this.arrivals.enter(signer, nonce);
    try {
      const v = await verified();
      for (;;) {
        try {
          return await this.perSigner.run(v.signer, () => this.admit(v, callbackUrl));
        } catch (e) {
          if (!(e instanceof TransactionError && e.details?.reason === 'Future')) throw e;
          // Taken after the check: a lower nonce that left before it was admitted before it (the
          // same serial section), one still in flight now may fill the gap.
          const earlier = this.arrivals.earlier(arrival);
          if (earlier.length === 0) throw e;
          await Promise.race(earlier);
        }
      }
    } finally {
      arrival.leave();
    }
  }

  /**
   * Custodial submit: build `call` for `address` at its next nonce (or `nonce`), sign it with
   * `key` and admit it, all in the signer's serial section, so concurrent submissions of one
   * account get consecutive nonces.
   */
  async signAndSubmit(
    address: Address,
    call: Call,
    key: CustodialKey,
    options: { nonce?: number; callbackUrl?: string } = {}
  ): Promise<Submitted & { signerPayloadJSON: SignerPayloadJSON }> {
    const signer = canonicalSigner(address);
    if (!u8aEq(publicKeyOf(signer), key.publicKey)) {
      throw new TransactionError('BadSignature', 'Signature does not verify for the payload and the signer address: the seed is not the key of this address');
    }
    let json!: SignerPayloadJSON;
    const entry = await this.admission(() =>
      this.perSigner.run(signer, async () => {
        const built = await this.build(signer, call, { nonce: options.nonce });
        json = built.signerPayloadJSON;
        const signature = key.sign(this.messageToSign(json));
        return this.admit(this.verified(json, signature, signer, call), options.callbackUrl);
      })
    );
    return { ...(await this.persist(entry)), signerPayloadJSON: json };
  }

  /** The status record of an extrinsic: in a block, refused, waiting in the pool, or unknown. */
  async status(hash: string, tx?: QueryTx): Promise<ExtrinsicRecord | undefined> {
    const kept = this.keptRecord(hash);
    if (kept) return kept;
    const lookup = async (t: QueryTx) => {
      const stored = await this.storedRecord(hash, t);
      // Last: one the replaced ledger dropped (submitted again since, the store's record answers).
      return stored ? currentRecord(t, stored) : this.dropped.get(hash);
    };
    return tx ? lookup(tx) : this.read(lookup);
  }

  /**
   * An extrinsic's record as kept or stored (another context's waiting row as Ready), before the
   * check status() makes that its block is still the ledger's: statusJson makes it with the block
   * it reads anyway, so a status answer reads that block once.
   */
  async recordOf(hash: string, tx: QueryTx): Promise<ExtrinsicRecord | undefined> {
    return this.keptRecord(hash) ?? (await this.storedRecord(hash, tx)) ?? this.dropped.get(hash);
  }

  /** Waiting in this pool, or (the sole writer) in one of the latest blocks. */
  private keptRecord(hash: string): ExtrinsicRecord | undefined {
    return this.pool.statusOf(hash) ?? this.memory.statusOf(hash);
  }

  private async storedRecord(hash: string, tx: QueryTx): Promise<ExtrinsicRecord | undefined> {
    const stored = await tx.get('extrinsics', hash);
    if (stored) return stored;
    // Shared stores: waiting in another context's pool.
    const row = await tx.get('pool', hash);
    return row ? readyRecord(row) : undefined;
  }

  /**
   * A status this process answers from memory, with the block holding it (null outside a block):
   * waiting in the pool, or (the sole writer) in one of the latest blocks. Undefined when only the
   * store can tell.
   */
  keptStatus(hash: string): { record: ExtrinsicRecord; block: BlockRecord | null } | undefined {
    const waiting = this.pool.statusOf(hash);
    if (waiting) return { record: waiting, block: null };
    const recent = this.memory.statusOf(hash);
    if (!recent) return undefined;
    if (recent.blockNumber === null) return { record: recent, block: null };
    const block = this.memory.blockOf(recent.blockNumber);
    return block?.hash === recent.blockHash ? { record: recent, block } : undefined;
  }

  /** Put everything waiting into one new block now (manual and interval modes; also works in instant). Throws if it cannot be written. */
  sealBlock(): Promise<BlockRecord | null> {
    return this.sealer.sealBlock();
  }

  /** Set an account's free balance (Anvil's setBalance): a new block whose own change it is, in history like any other. */
  async setBalance(address: Address, free: bigint): Promise<BlockRecord> {
    const account = canonicalAccount(address);
    const block = await this.sealer.sealChange(async (state) => {
      const row = await loadAccount(state, account);
      await state.put('accounts', { ...row, free });
    });
    return block!;
  }

  /** Called with every new block this ledger produces. */
  onBlock(listener: (block: BlockRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Stop producing. Submitters in this process still waiting are refused (their rows stay in the
   * store and wait again when it is next opened, unless the chain was replaced). Answers the status
   * each of them has now, for a ledger that replaces this one to answer (`rememberDropped`).
   */
  close(): ExtrinsicRecord[] {
    if (this.closed) return [];
    this.closed = true;
    this.sealer.close();
    const refusal = new TransactionError('Invalid', 'The ledger was closed or replaced (imported or reset) before this extrinsic was included', { reason: 'Dropped' });
    const dropped: ExtrinsicRecord[] = [];
    for (const entry of this.pool.drain()) {
      entry.durable?.(refusal); // a deferred row was never written: its submitter is refused
      entry.settle?.({ rejected: refusal });
      dropped.push(droppedRecord(entry, refusal.message));
    }
    return dropped;
  }

  /**
   * Extrinsics a replaced ledger dropped while they waited: their status answers Invalid / Dropped
   * here, not "unknown". `replaced` is that ledger: what it remembered of earlier replacements stays.
   */
  rememberDropped(records: readonly ExtrinsicRecord[], replaced?: Ledger): void {
    for (const record of [...(replaced?.dropped.values() ?? []), ...records]) {
      this.dropped.delete(record.hash);
      this.dropped.set(record.hash, record);
    }
    for (const hash of this.dropped.keys()) {
      if (this.dropped.size <= MAX_DROPPED) break;
      this.dropped.delete(hash);
    }
  }

  // ---- internals ---------------------------------------------------------------------------

  /** The stored head, alone: one row where the store reads single rows cheaply. */
  private async headOnly(): Promise<Head> {
    if (!this.store.readRow) return this.read((tx) => this.storedHead(tx));
    const row = await this.store.readRow('meta', 'head');
    return row === undefined ? this.genesisHead() : (row.value as Head);
  }

  private storedHead(tx: QueryTx): Promise<Head> {
    return readMeta<Head>(tx, 'head', this.genesisHead());
  }

  /** The head of a store with no block yet. */
  private genesisHead(): Head {
    return { number: 0, hash: this.config.genesisHash };
  }

  /**
   * A read that the in-memory pool must agree with, given the stored head it read. A read
   * transaction may see the state from before a block while the pool already dropped that block's
   * extrinsics; if a block committed during the read, it runs again (its refusals too, which may
   * have come from the mismatch) unless it read that very block as the head: it waited for the
   * block's write and saw what the pool saw (with many submitters, most reads do).
   */
  private async readWithPool<T>(fn: (tx: QueryTx, head: Head) => Promise<T>): Promise<T> {
    for (;;) {
      const generation = this.memory.generation;
      const outcome = await this.read(async (tx) => {
        const head = await this.storedHead(tx);
        return { head, value: await fn(tx, head) };
      }).catch((error: unknown) => ({ error }));
      if ('error' in outcome) {
        if (generation !== this.memory.generation) continue;
        throw outcome.error;
      }
      if (generation !== this.memory.generation && outcome.head.hash !== this.memory.lastHead) continue;
      return outcome.value;
    }
  }

  /** One store write after every earlier one of this ledger, inside the cross-context lock. */
  private write<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    const guarded = this.beforeWrite ? async (tx: QueryTx) => (await this.beforeWrite!(tx), fn(tx)) : fn;
    const run = this.writes.then(() => this.writeLock(() => this.store.write(guarded)));
    this.writes = run.catch(() => {});
    return run;
  }

  /** A payload whose signature is checked, with its hash and fee. */
  private verified(json: SignerPayloadJSON, signature: string, signer: Address, call: Call): Verified {
    return { json, signer, call, ...signedExtrinsicOf(json, signature, signer, call, this.rules) };
  }

  /** Inside the signer's serial section: the chain checks, then the entry joins the pool (uncommitted). */
  private async admit(v: Verified, callbackUrl?: string): Promise<Waiting> {
    if (this.closed) throw new TransactionError('Invalid', 'The ledger was closed or replaced (imported or reset); submit again', { reason: 'Dropped' });
    refuseUndecodable(v.call, this.rules);
    const { validUntil, reservedBy } = await this.readWithPool(async (tx, head) => {
      // Both read at once; the payload's refusal comes first when both refuse.
      const [era, pool] = await Promise.allSettled([checkPayloadAgainstChain(tx, this.config, v.json, payloadEra(v.json), head), this.pool.check(tx, v, head.number + 1, this.rules)]);
      if (era.status === 'rejected') throw era.reason;
      if (pool.status === 'rejected') throw pool.reason;
      return { validUntil: era.value, reservedBy: pool.value };
    });
    const entry: Waiting = {
      hash: v.hash,
      signer: v.signer,
      nonce: v.nonce,
      call: v.call,
      fee: v.fee,
      validUntil,
      createdAt: this.now(),
      ...(callbackUrl ? { callbackUrl } : {}),
      ...(reservedBy !== v.signer ? { reservedBy } : {}),
      ...(v.impersonated ? { impersonated: true as const } : {}),
      committed: false,
      sealing: false,
      failedBlocks: 0
    };
    this.pool.add(entry);
    return entry;
  }

  /**
   * Counts `fn`, an admission, as in flight until its entry is in the pool (`persist` ends the
   * count) or it is refused.
   */
  private async admission(fn: () => Promise<Waiting>): Promise<Waiting> {
    this.admitting++;
    try {
      return await fn();
    } catch (e) {
      this.admitting--;
      this.sealer.schedule();
      throw e;
    }
  }

  /**
   * Make the admitted entry durable, then answer. In instant mode its row is deferred to the block
   * that seals it (one write instead of two, see pool.ts); otherwise its pool row is committed
   * (group commit) before the sealer sees it.
   */
  private async persist(entry: Waiting): Promise<Submitted> {
    if (this.pool.get(entry.hash) !== entry) {
      this.admitting--;
      throw new TransactionError('Invalid', 'The ledger was closed or replaced (imported or reset) before this extrinsic was stored; submit again', { reason: 'Dropped' });
    }
    const result = new Promise<InclusionResult | { rejected: Error }>((resolve) => (entry.settle = resolve));
    if (this.blockModeValue.kind === 'instant') {
      const durable = this.pool.deferRow(entry);
      this.admitting--;
      this.sealer.schedule();
      await durable;
    } else {
      try {
        await this.pool.persist(entry);
      } finally {
        this.admitting--;
        this.sealer.schedule();
      }
    }
    const included = result.then((r) => {
      if ('rejected' in r) throw r.rejected;
      return r.included;
    });
    included.catch(() => {});
    return { hash: entry.hash, included };
  }

  /** A block is durable: bring the sole writer's memory up to it, then tell listeners. */
  private committed(sealed: Sealed): void {
    this.memory.apply(sealed);
    this.memoised.clear();
    this.tell(sealed.block);
  }

  /** Tell listeners of a new head (a block sealed, or an earlier block after a revert). */
  private tell(block: BlockRecord): void {
    for (const listener of this.listeners) {
      // A listener's failure must not undo what is durable, nor keep submitters from hearing of it.
      try {
        listener(block);
      } catch (e) {
        this.log('Opalite: a block listener failed', e);
      }
    }
  }
}
