// `opalite/testing`: a fresh ledger per test. createTestLedger() starts the Node host on a free
// port and drives its `/dev/*` routes over HTTP, as a test would; opaliteFixtures hands one to
// each Playwright test without this package importing @playwright/test.
import { DEV_ACCOUNTS } from '../lib/ledger/chain/config';
import { parseBlockMode, startHost, type BlockMode, type BlockModeName, type RuleSet, type StartHostOptions } from './node.js';

export type { BlockMode, BlockModeName, RuleSet } from './node.js';

/** The dev accounts every new ledger funds at genesis, by name. */
export interface DevAccounts<T> {
  alice: T;
  bob: T;
  charlie: T;
  dave: T;
  eve: T;
  ferdie: T;
}

const NAMES = ['alice', 'bob', 'charlie', 'dave', 'eve', 'ferdie'] as const;

/** `alice` → `//Alice`. */
const uriOf = (name: string) => `//${name[0].toUpperCase()}${name.slice(1)}`;

/** Dev URIs of the dev accounts: `Authorization: Seed //Alice` signs as Alice (custodial). */
export const DEV_SEEDS: Readonly<DevAccounts<string>> = Object.freeze(Object.fromEntries(NAMES.map((name) => [name, uriOf(name)])) as unknown as DevAccounts<string>);

/** SS58 addresses (prefix 42) of the dev accounts. */
export const DEV_ADDRESSES: Readonly<DevAccounts<string>> = Object.freeze(Object.fromEntries(NAMES.map((name) => [name, DEV_ACCOUNTS[uriOf(name)]])) as unknown as DevAccounts<string>);

export interface TestLedgerOptions extends Omit<StartHostOptions, 'quiet'> {
  /** Log every request to stdout. Default false. */
  verbose?: boolean;
}

/** The chain's head block. */
export interface BlockHead {
  number: number;
  hash: string;
}

/** The head after sealBlock(): the new block, `extrinsics` the hashes it holds (none when nothing waited). */
export interface SealedHead extends BlockHead {
  extrinsics: string[];
}

/** A snapshot: the head when it was taken. */
export interface LedgerSnapshot {
  snapshotId: string;
  blockNumber: number;
  blockHash: string;
}

/** What `/dev/status` answers. */
export interface LedgerStatus {
  host: string;
  appVersion: string;
  dbSchemaVersion: number | null;
  network: string;
  rules: RuleSet;
  genesisHash: string;
  head: BlockHead;
  blockMode: BlockMode;
  /** Whether `Authorization: Impersonate <address>` signs here. */
  impersonate: boolean;
  /** A fork: its source, the block, and the source's reads that could not be pinned there. */
  fork?: { source: string; blockHash: string; blockNumber: number | null; sourceGenesisHash: string; unpinned: string[] };
}

/** One extrinsic of the log (`GET /extrinsic/list`), as the REST API's status answer spells it. */
export interface ExtrinsicLogRow {
  hash: string;
  status: string;
  isCompleted: boolean;
  isError: boolean;
  signer: string;
  callMethod: { section: string; method: string };
  blockHash: string | null;
  blockIndex: number | null;
  createdAt: number;
  error: { message: string; details: { section: string; name: string } } | null;
  parsed: unknown;
  events: { section: string; method: string; data: unknown; index: unknown }[];
  [field: string]: unknown;
}

export interface TestLedger {
  /** The REST API's base URL, e.g. `http://127.0.0.1:41234/sandbox/v1`. */
  readonly url: string;
  /** The same URL, under the name `new Sdk({ baseUrl })` of @unique-nft/sdk takes. */
  readonly baseUrl: string;
  /** Scheme, address and port: where `/ipfs/<cid>` is answered. */
  readonly origin: string;
  /** Addresses of the dev accounts, funded at genesis (and again after reset()). */
  readonly accounts: Readonly<DevAccounts<string>>;
  /** Their dev URIs, for `Authorization: Seed <uri>` or an sr25519 signer. */
  readonly seeds: Readonly<DevAccounts<string>>;
  /** Put every waiting extrinsic into one new block now (for `manual` or `interval` blocks); the head after. */
  sealBlock(): Promise<SealedHead>;
  /** Switch block production: `instant`, `manual` or `interval:<ms>` (at least 100 ms). */
  setBlockMode(mode: BlockModeName | BlockMode): Promise<BlockMode>;
  /** Host, chain (rules, genesis hash, head) and block mode. */
  status(): Promise<LedgerStatus>;
  /** The extrinsic log, newest first (at most 500), optionally of one signer: those in a block or refused, not those still waiting. */
  extrinsics(options?: { address?: string; limit?: number }): Promise<ExtrinsicLogRow[]>;
  /** Take a snapshot of the head; `revert(snapshotId)` makes it the head again (as often as needed). */
  snapshot(): Promise<LedgerSnapshot>;
  /**
   * Make the snapshot's block the head again: every read, nonce, balance and list as it was; later
   * blocks are gone and their extrinsics answer Invalid (Reverted). Uploaded files stay. Rejects
   * with TestLedgerError (404) for an unknown snapshot, 410 when its block was pruned (`history`).
   */
  revert(snapshotId: string): Promise<BlockHead>;
  /** Seal `count` blocks now (default 1, at most 1,000), empty ones too: for what counts blocks (Anvil's mine); the head after. */
  seal(count?: number): Promise<BlockHead>;
  /** Set an account's free balance to `amount` whole units, in a block of its own (Anvil's setBalance). */
  setBalance(address: string, amount: string | number): Promise<BlockHead>;
  /** Switch impersonation (`Authorization: Impersonate <address>`) on or off. */
  setImpersonation(enabled: boolean): Promise<boolean>;
  /** A fresh chain (new genesis hash, dev accounts funded again); `rules` default to the current ones. */
  reset(options?: { rules?: RuleSet }): Promise<BlockHead & { genesisHash: string; rules: RuleSet }>;
  /** Stop the host and delete its temporary database. Safe to call twice. */
  stop(): Promise<void>;
}

/** A `/dev/*` answer that is not a success, as an Error carrying the API's error envelope. */
export class TestLedgerError extends Error {
  override readonly name = 'TestLedgerError';
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown
  ) {
    super(message);
  }
}

async function call<T>(url: string, init?: { method: 'POST'; body: unknown }): Promise<T> {
  const response = await fetch(url, init && { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) });
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const message = (body as { error?: { message?: string } } | undefined)?.error?.message ?? text.slice(0, 200);
    throw new TestLedgerError(`opalite: ${init ? 'POST' : 'GET'} ${new URL(url).pathname} answered ${response.status}: ${message}`, response.status, body);
  }
  return body as T;
}

/**
 * A fresh ledger for one test: the Node host on a free port over a temporary SQLite database,
 * with the dev accounts funded. Works with any test runner.
 *
 * ```ts
 * import { createTestLedger, type TestLedger } from 'opalite/testing';
 * let ledger: TestLedger;
 * beforeEach(async () => { ledger = await createTestLedger({ blocks: 'manual' }); });
 * afterEach(() => ledger.stop());
 *
 * it('waits for a block', async () => {
 *   const sdk = new Sdk({ baseUrl: ledger.baseUrl, signer });
 *   // ... submit, then:
 *   const head = await ledger.sealBlock();
 * });
 * ```
 *
 * Signatures are checked on the main thread unless `verifyThreads` says otherwise: a ledger
 * that lives for one test does not pay for starting worker threads.
 */
export async function createTestLedger(options: TestLedgerOptions = {}): Promise<TestLedger> {
  const { verbose, ...hostOptions } = options;
  const host = await startHost({ verifyThreads: 0, ...hostOptions, quiet: !verbose });
  const dev = (path: string) => `${host.url}/dev/${path}`;
  return {
    url: host.url,
    baseUrl: host.url,
    origin: host.origin,
    accounts: DEV_ADDRESSES,
    seeds: DEV_SEEDS,
    async sealBlock() {
      const { block } = await call<{ block: SealedHead | null }>(dev('blocks/seal'), { method: 'POST', body: {} });
      if (block) return { number: block.number, hash: block.hash, extrinsics: block.extrinsics };
      // No block was written: the head stands.
      const { head } = await call<LedgerStatus>(dev('status'));
      return { ...head, extrinsics: [] };
    },
    async setBlockMode(mode) {
      const { blockMode } = await call<{ blockMode: BlockMode }>(dev('block-mode'), { method: 'POST', body: parseBlockMode(mode) });
      return blockMode;
    },
    status: () => call<LedgerStatus>(dev('status')),
    async seal(count = 1) {
      const { block } = await call<{ block: BlockHead }>(dev('seal'), { method: 'POST', body: { count } });
      return { number: block.number, hash: block.hash };
    },
    async setBalance(address, amount) {
      const { block } = await call<{ block: BlockHead }>(dev('set-balance'), { method: 'POST', body: { address, amount } });
      return block;
    },
    async setImpersonation(enabled) {
      return (await call<{ impersonate: boolean }>(dev('impersonation'), { method: 'POST', body: { enabled } })).impersonate;
    },
    async extrinsics({ address, limit = 500 } = {}) {
      const query = new URLSearchParams({ limit: String(limit), ...(address ? { address } : {}) });
      return (await call<{ extrinsics: ExtrinsicLogRow[] }>(`${host.url}/extrinsic/list?${query}`)).extrinsics;
    },
    snapshot: () => call<LedgerSnapshot>(dev('snapshot'), { method: 'POST', body: {} }),
    async revert(snapshotId) {
      const head = await call<{ blockNumber: number; blockHash: string }>(dev('revert'), { method: 'POST', body: { snapshotId } });
      return { number: head.blockNumber, hash: head.blockHash };
    },
    async reset({ rules } = {}) {
      const summary = await call<{ genesisHash: string; rules: RuleSet; head: BlockHead }>(dev('reset'), { method: 'POST', body: rules ? { rules } : {} });
      return { ...summary.head, genesisHash: summary.genesisHash, rules: summary.rules };
    },
    stop: () => host.stop()
  };
}

/** What Playwright passes a test-scoped fixture: `use` hands the value to the test. */
type FixtureUse<T> = (value: T) => Promise<void>;

/**
 * Playwright Test fixtures: `opalite`, a fresh {@link TestLedger} for each test, stopped after it.
 * This package does not import `@playwright/test`; bring your own.
 *
 * ```ts
 * import { test as base, expect } from '@playwright/test';
 * import { opaliteFixtures, type TestLedger } from 'opalite/testing';
 *
 * const test = base.extend<{ opalite: TestLedger }>(opaliteFixtures);
 *
 * test('creates a collection', async ({ request, opalite }) => {
 *   const answer = await request.post(`${opalite.baseUrl}/collections?use=Result`, {
 *     headers: { authorization: `Seed ${opalite.seeds.alice}` },
 *     data: { address: opalite.accounts.alice, name: 'Demo', description: 'A demo', tokenPrefix: 'DEMO' }
 *   });
 *   expect(answer.ok()).toBe(true);
 * });
 * ```
 */
// Playwright reads the first parameter's destructuring to learn a fixture's dependencies: `{}` = none.
const freshLedger = async ({}, use: FixtureUse<TestLedger>): Promise<void> => {
  const ledger = await createTestLedger();
  try {
    await use(ledger);
  } finally {
    await ledger.stop();
  }
};

export const opaliteFixtures: {
  opalite: [(args: {}, use: FixtureUse<TestLedger>) => Promise<void>, { scope: 'test' }];
} = {
  opalite: [freshLedger, { scope: 'test' }]
};

/**
 * Playwright Test fixtures that share one ledger per worker and revert it after each test (a
 * snapshot before, a revert after): each test starts from the same state, without starting a
 * host per test. `opalite` is the {@link TestLedger}; `opaliteWorkerLedger` is the shared one.
 *
 * ```ts
 * const test = base.extend<{ opalite: TestLedger }, { opaliteWorkerLedger: TestLedger }>(opaliteRevertingFixtures);
 * ```
 */
export const opaliteRevertingFixtures: {
  opaliteWorkerLedger: [(args: {}, use: FixtureUse<TestLedger>) => Promise<void>, { scope: 'worker' }];
  opalite: [(args: { opaliteWorkerLedger: TestLedger }, use: FixtureUse<TestLedger>) => Promise<void>, { scope: 'test' }];
} = {
  opaliteWorkerLedger: [freshLedger, { scope: 'worker' }],
  opalite: [
    async ({ opaliteWorkerLedger }, use) => {
      const { snapshotId } = await opaliteWorkerLedger.snapshot();
      try {
        await use(opaliteWorkerLedger);
      } finally {
        await opaliteWorkerLedger.revert(snapshotId);
      }
    },
    { scope: 'test' }
  ]
};
