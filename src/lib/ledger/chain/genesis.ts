// A fresh chain: configuration, block 0 and the funded dev accounts.
import { blake2b256, toHex } from '../../codec/hash';
import { UNIT } from '../constants';
import { META, writeMeta } from '../meta';
import type { RuleSetName } from '../rules';
import type { ForkOrigin } from '../fork/source';
import type { QueryTx } from '../store';
import type { BlockRecord } from '../types';
import {
  DEV_ACCOUNTS,
  ERA_PERIOD,
  SPEC_VERSION,
  SS58_PREFIX,
  TOKEN_SYMBOL,
  TRANSACTION_VERSION,
  type ChainConfig
} from './config';

/** Every dev account starts with one million units. */
export const DEV_ENDOWMENT = 1_000_000n * UNIT;

export interface GenesisOptions {
  network?: string;
  rules?: RuleSetName;
  now: number;
  /** 32 random bytes: each ledger gets its own genesis hash, so payloads of one never verify on another. */
  entropy: Uint8Array;
  /** A fork: its state is the source's at the fork block, so no dev account is funded here. */
  fork?: ForkOrigin;
}

const ZERO_HASH = '0x' + '00'.repeat(32);

export async function writeGenesis(tx: QueryTx, options: GenesisOptions): Promise<ChainConfig> {
  const rules = options.rules ?? 'spec';
  const seed = new TextEncoder().encode(`opalite-genesis:${rules}:${options.now}:`);
  const genesisHash = toHex(blake2b256(new Uint8Array([...seed, ...options.entropy])));
  const config: ChainConfig = {
    network: options.network ?? 'sandbox',
    ss58Prefix: SS58_PREFIX,
    tokenSymbol: TOKEN_SYMBOL,
    decimals: 18,
    specVersion: SPEC_VERSION,
    transactionVersion: TRANSACTION_VERSION,
    genesisHash,
    rules,
    eraPeriod: ERA_PERIOD,
    createdAt: options.now,
    ...(options.fork ? { fork: options.fork } : {})
  };
  const block0: BlockRecord = {
    number: 0,
    hash: genesisHash,
    parentHash: ZERO_HASH,
    stateRoot: ZERO_HASH,
    extrinsicsRoot: ZERO_HASH,
    timestamp: options.now,
    extrinsics: []
  };
  await writeMeta(tx, META.chainConfig, config);
  await writeMeta(tx, META.genesisHash, genesisHash);
  await writeMeta(tx, 'head', { number: 0, hash: genesisHash });
  await tx.put('blocks', block0);
  if (options.fork) {
    // Collection ids continue after the source's.
    await writeMeta(tx, META.createdCollectionCount, options.fork.collections.created);
    await writeMeta(tx, META.destroyedCollectionCount, options.fork.collections.destroyed);
    return config;
  }
  for (const address of Object.values(DEV_ACCOUNTS)) {
    await tx.put('accounts', { address, free: DEV_ENDOWMENT, nonce: 0 });
  }
  return config;
}
