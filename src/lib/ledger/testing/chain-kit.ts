// Helpers of the chain tests: signing payloads, a store that fails on purpose, seeded randomness.
import type { KeyringPair } from '@polkadot/keyring/types';
import { addressFromPublicKey } from '../../codec/address';
import { pairFromSeed, signMessage } from '../../codec/signature';
import type { SignerPayloadJSON } from '../../codec/payload';
import type { QueryTx, Store } from '../store';
import { MemoryStore } from './memory-store';
import type { Call } from '../types';
import type { CustodialKey, Ledger } from '../chain/ledger';

export function keyOf(seed: string): { pair: KeyringPair; address: string; key: CustodialKey } {
  const pair = pairFromSeed(seed);
  return { pair, address: addressFromPublicKey(pair.publicKey), key: { publicKey: pair.publicKey, sign: (m) => signMessage(pair, m) } };
}

/** A payload of `call` built for `seed`'s account and signed by it. */
export async function signed(ledger: Ledger, seed: string, call: Call, nonce?: number): Promise<{ json: SignerPayloadJSON; signature: string }> {
  const { pair, address } = keyOf(seed);
  const built = await ledger.build(address, call, { nonce });
  return { json: built.signerPayloadJSON, signature: signMessage(pair, ledger.signingMessage(built.signerPayloadJSON)) };
}

export function transfer(dest: string, value: bigint): Call {
  return { name: 'balances.transferKeepAlive', args: { dest, value } } as Call;
}

/** Deterministic random numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A MemoryStore whose write transactions throw at a random `put` with probability `failRate`. */
export class FaultyStore implements Store {
  failRate = 0;
  injected = 0;

  constructor(
    readonly inner: Store = new MemoryStore(),
    private readonly random: () => number = Math.random
  ) {}

  read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.inner.read(fn);
  }
  write<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return this.inner.write((tx) => fn(this.faulty(tx)));
  }
  dump() {
    return this.inner.dump();
  }
  replaceAll(rows: Parameters<Store['replaceAll']>[0]) {
    return this.inner.replaceAll(rows);
  }
  close(): void {
    this.inner.close();
  }

  private faulty(tx: QueryTx): QueryTx {
    return new Proxy(tx, {
      get: (target, property) => {
        if (property === 'put') {
          return (table: never, row: never) => {
            if (this.random() < this.failRate) {
              this.injected++;
              throw new Error('injected write failure');
            }
            return target.put(table, row);
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      }
    });
  }
}
