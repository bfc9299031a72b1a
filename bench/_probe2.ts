import * as wc from '@polkadot/wasm-crypto';
await wc.waitReady();
console.log('type', (wc.bridge as any).type, (wc.bridge as any).wasm ? 'has wasm' : 'no wasm');
const b: any = wc.bridge; console.log(Object.keys(b), b.type);
