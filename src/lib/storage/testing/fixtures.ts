// Records and Dexie store factories for the storage tests (every store at once: tests/unit/every-store.ts).
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type {
  AccountRecord,
  Address,
  BlockRecord,
  CollectionRecord,
  ExtrinsicRecord,
  PoolRecord,
  TokenRecord
} from '../../ledger/types';
import { DexieStore, openDexieStore } from '../dexie-store';
import { LedgerDatabase, type LedgerDatabaseOptions } from '../schema';

export const ALICE: Address = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const BOB: Address = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const CHARLIE: Address = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';

let dbCounter = 0;

/** A database name no other test uses. */
export function freshName(): string {
  return `opalite-test-${process.pid}-${++dbCounter}-${Math.random().toString(36).slice(2)}`;
}

/** Options for a brand-new database on its own fake IndexedDB. */
export function freshOptions(): Required<Omit<LedgerDatabaseOptions, 'versions'>> {
  return { name: freshName(), indexedDB: new IDBFactory(), IDBKeyRange };
}

export function freshDexieStore(): Promise<DexieStore> {
  return openDexieStore(freshOptions());
}

/** A DexieStore whose database gets `setup` (e.g. a middleware) before it opens. */
export async function dexieStoreWith(setup: (db: LedgerDatabase) => void): Promise<DexieStore> {
  const db = new LedgerDatabase(freshOptions());
  setup(db);
  await db.open();
  return new DexieStore(db);
}

export function nestingAddress(collectionId: number, tokenId: number): Address {
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `0xf8238ccfff8ed887463fd5e0${hex(collectionId)}${hex(tokenId)}`;
}

export function collection(id: number, owner: Address = ALICE): CollectionRecord {
  return {
    id,
    owner,
    mode: 'NFT',
    decimals: 0,
    name: `Collection ${id}`,
    description: 'test',
    tokenPrefix: 'TST',
    sponsorship: null,
    limits: {
      accountTokenOwnershipLimit: null,
      sponsoredDataSize: null,
      sponsoredDataRateLimit: null,
      tokenLimit: 100,
      sponsorTransferTimeout: null,
      sponsorApproveTimeout: null,
      ownerCanTransfer: true,
      ownerCanDestroy: null,
      transfersEnabled: null
    },
    permissions: { access: 'Normal', mintMode: false, nesting: { tokenOwner: true, collectionAdmin: false, restricted: null } },
    readOnly: false,
    properties: [{ key: 'a', value: '1' }],
    tokenPropertyPermissions: [],
    admins: [BOB],
    tokensMinted: 0,
    tokensBurnt: 0
  };
}

/** A token owned by `owner`, or nested under `parent` (owner = the parent's nesting address). */
export function token(collectionId: number, tokenId: number, owner: Address | [number, number] = ALICE): TokenRecord {
  if (Array.isArray(owner)) {
    const [pc, pt] = owner;
    return {
      collectionId,
      tokenId,
      owner: nestingAddress(pc, pt),
      properties: [],
      parentCollectionId: pc,
      parentTokenId: pt
    };
  }
  return { collectionId, tokenId, owner, properties: [{ key: 'n', value: String(tokenId) }] };
}

export function account(address: Address, free: bigint, nonce = 0): AccountRecord {
  return { address, free, nonce };
}

export function blockHash(n: number): string {
  return '0x' + n.toString(16).padStart(64, '0');
}

export function block(number: number): BlockRecord {
  return {
    number,
    hash: blockHash(number),
    parentHash: number === 0 ? blockHash(0) : blockHash(number - 1),
    stateRoot: '0x' + 'ab'.repeat(32),
    extrinsicsRoot: '0x' + 'cd'.repeat(32),
    timestamp: 1_700_000_000_000 + number * 12_000,
    extrinsics: []
  };
}

export function extrinsic(hash: string, signer: Address, createdAt: number): ExtrinsicRecord {
  return {
    hash,
    signer,
    nonce: 0,
    callMethod: { section: 'balances', method: 'transferKeepAlive' },
    call: { name: 'balances.transferKeepAlive', args: { dest: BOB, value: 10n ** 18n } },
    status: 'InBlock',
    isCompleted: true,
    isError: false,
    blockNumber: 1,
    blockHash: blockHash(1),
    blockIndex: 0,
    events: [{ section: 'balances', method: 'Transfer', data: { from: signer, to: BOB, amount: '1' } }],
    error: null,
    fee: '1000',
    feePayer: signer,
    createdAt
  };
}

export function pooled(hash: string, signer: Address, nonce: number, createdAt = 1000): PoolRecord {
  return {
    hash,
    signer,
    nonce,
    call: { name: 'balances.transferKeepAlive', args: { dest: BOB, value: 10n ** 18n + BigInt(nonce) } },
    fee: 1_000_000_000_000_000n + BigInt(nonce),
    validUntil: 64,
    createdAt
  };
}
