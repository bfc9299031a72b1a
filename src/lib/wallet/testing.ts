// Test helpers for the wallet (used by the tests beside it; not exported from index.ts).
import { u8aConcat } from '@polkadot/util';
import {
  base64Encode,
  encodeAddress,
  mnemonicToMiniSecret,
  naclEncrypt,
  randomAsU8a,
  scryptEncode,
  scryptToU8a,
  sr25519PairFromSeed
} from '@polkadot/util-crypto';
import { toKeystoreJson, type KeystoreJson } from './keystore';
import type { TimerHandle } from './vault';

/** A clock and timers that move only when told, for the auto-lock tests. */
export function fakeClock(start = 1_700_000_000_000) {
  let time = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => time,
    setTimer: (fn: () => void, ms: number): TimerHandle => {
      timers.set(++nextId, { at: time + ms, fn });
      return nextId;
    },
    clearTimer: (handle: TimerHandle) => {
      timers.delete(handle as number);
    },
    /** Moves the clock forward, firing each timer that falls due, in order. */
    advance(ms: number) {
      const end = time + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        time = Math.max(time, due[1].at);
        due[1].fn();
      }
      time = end;
    },
    /** Moves the clock forward without firing anything (a suspended device). */
    jump(ms: number) {
      time += ms;
    },
    get pending() {
      return timers.size;
    }
  };
}

/**
 * A keystore like `createFromMnemonic` makes, but with the cheapest scrypt parameters polkadot
 * accepts (N = 2^15, p = 1, r = 8: a quarter of the work), to keep tests quick.
 */
export function quickKeystore(mnemonic: string, name: string, password: string): KeystoreJson {
  const miniSecret = mnemonicToMiniSecret(mnemonic);
  const { publicKey, secretKey } = sr25519PairFromSeed(miniSecret);
  const pkcs8 = u8aConcat(
    new Uint8Array([48, 83, 2, 1, 1, 48, 5, 6, 3, 43, 101, 112, 4, 34, 4, 32]),
    secretKey,
    new Uint8Array([161, 35, 3, 33, 0]),
    publicKey
  );
  const params = { N: 1 << 15, p: 1, r: 8 };
  const scrypt = scryptEncode(password, randomAsU8a(32), params);
  const { encrypted, nonce } = naclEncrypt(pkcs8, scrypt.password.subarray(0, 32));
  return toKeystoreJson({
    address: encodeAddress(publicKey, 42),
    encoded: base64Encode(u8aConcat(scryptToU8a(scrypt.salt, params), nonce, encrypted)),
    encoding: { content: ['pkcs8', 'sr25519'], type: ['scrypt', 'xsalsa20-poly1305'], version: '3' },
    meta: { name, whenCreated: 0 }
  });
}
