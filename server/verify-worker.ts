// A worker thread of the signature-check pool (verify-pool.ts): answers each request with the
// codec's own verifySignature, so a check here and one on the event loop cannot disagree.
import { parentPort } from 'node:worker_threads';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { verifySignature } from '../src/lib/codec/signature';
import type { VerifyReply, VerifyRequest } from './verify-pool';

const port = parentPort;
if (!port) throw new Error('verify-worker runs as a worker thread of the signature-check pool');

// The wasm verifiers are several times faster than the JS fallback; load them before answering.
await cryptoWaitReady();

port.on('message', ({ id, message, signature, signer }: VerifyRequest) => {
  let reply: VerifyReply;
  try {
    reply = { id, valid: verifySignature(message, signature, signer) };
  } catch (e) {
    // A signature or signer the codec cannot read: the caller turns the message into BadSignature.
    reply = { id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
