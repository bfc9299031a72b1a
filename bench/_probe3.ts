import { cryptoWaitReady, sr25519Verify, blake2AsU8a } from '@polkadot/util-crypto';
import { pairFromSeed } from '../src/lib/codec/signature';
import { hexToU8a } from '@polkadot/util';
await cryptoWaitReady();
const p = pairFromSeed('//Alice');
const msg = hexToU8a('0x' + 'ab'.repeat(120));
for (let round=0; round<5; round++) {
let t = performance.now();
const sigs=[];for (let i=0;i<100;i++) sigs.push(p.sign(msg));
const s=(performance.now()-t)*10;
t = performance.now();
for (let i=0;i<100;i++) sr25519Verify(msg, sigs[i], p.publicKey);
const v=(performance.now()-t)*10;
t = performance.now();
for (let i=0;i<1000;i++) blake2AsU8a(msg);
console.log('round', round, 'sign us', s.toFixed(0), 'verify us', v.toFixed(0), 'blake2 us', (performance.now()-t).toFixed(1));
}
