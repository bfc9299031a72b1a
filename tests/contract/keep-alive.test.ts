// A client whose event loop was busy between two requests (a script signing transfers, a stalled
// machine) sends the second on the connection it kept, before it can notice that the host closed
// it: the host must keep idle connections longer than such a pause. The host runs in a process of
// its own, so blocking this one does not stop its clock.
import { Agent } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KEEP_ALIVE_TIMEOUT_MS } from '../../server/host';
import { send, startChildHost, type ChildHost } from './hostile/kit';

/** Past Node's default keep-alive of 5 s, with which this test fails (read ECONNRESET or socket hang up). */
const BUSY_MS = 6_000;

let host: ChildHost;
beforeAll(async () => {
  host = await startChildHost();
});
afterAll(() => host?.stop());

/** Holds this thread, its timers and sockets included, as a CPU-bound client does (without using the CPU). */
function busy(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

it(`answers a client that was busy ${BUSY_MS / 1000} s between two requests on the connection it kept`, async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const path = `${host.basePath}/chain/properties`;
  try {
    const first = await send(host.origin, { method: 'GET', path, agent });
    expect(first.status).toBe(200);
    expect(first.headers['keep-alive']).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    busy(BUSY_MS);
    const second = await send(host.origin, { method: 'GET', path, agent });
    // The test's own precondition: the second request did go over the first one's connection.
    expect(second.reused).toBe(true);
    expect(second.status).toBe(200);
  } finally {
    agent.destroy();
  }
});
