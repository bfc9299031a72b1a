// Crash safety of the Node host on its database file: 20 rounds of a stream of signed writes
// (16 in flight) ended by SIGKILL at a random moment, then a restart on the same file. Whatever the
// host acknowledged must be there, every hash it accepted must have a definite status, and the
// ledger's invariants must hold. The seed is printed; DURABILITY_SEED=<n> replays a run.
// SIGKILL keeps what the OS has cached, so this shows whole blocks and statuses, not that an
// acknowledgement waits for the disk: durable-ack.test.ts shows that.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildHost, tempDirectory, type ChildHost } from './child-host';
import { exportedLedger, ledgerViolations } from './invariants';
import { runSeed } from './random';
import { devSigners, prepareCollections, request, SignedWriteStream, type Accepted, type Acknowledgement } from './signed-writes';

const ROUNDS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const IN_FLIGHT = 16;
const SIGNER_URIS = ['//Alice', '//Bob', '//Charlie', '//Dave'];
/** Definite statuses of a hash answered 2xx: waiting, in a block, failed in a block, refused with a reason. */
const DEFINITE = ['Ready', 'InBlock', 'Error', 'Invalid'];

const temp = tempDirectory('opalite-crash-');
afterAll(() => temp.remove());

/** Instant blocks (acknowledged by `use=Result`) and interval blocks (pooled, then polled) alternate. */
const blocksOf = (round: number) => (round % 2 === 0 ? undefined : 'interval:100');

describe('SIGKILL during a stream of signed writes', () => {
  it(`keeps every acknowledged extrinsic and the ledger's invariants over ${ROUNDS} crashes`, { timeout: 480_000 }, async () => {
    const random = runSeed('crash.test');
    const data = join(temp.dir, 'ledger.sqlite');
    const signers = await devSigners(SIGNER_URIS);
    const acknowledged = new Map<string, Acknowledgement>();
    let host: ChildHost = await startChildHost({ data, blocks: blocksOf(0) });
    const collections = await prepareCollections(host.url, signers, 3);
    const totals = { accepted: 0, acknowledged: 0, killedAfterMs: [] as number[] };

    try {
      for (let round = 0; round < ROUNDS; round++) {
        const stream = new SignedWriteStream({ baseUrl: host.url, signers, collections, random, submitWith: blocksOf(round) ? 'Submit' : 'Result' });
        const running = stream.run(IN_FLIGHT);
        // The moment: after a random number of acknowledgements (whatever this machine's speed),
        // then a random delay, so the kill lands anywhere in a block's life.
        const started = performance.now();
        const acknowledgements = random.int(1, 12);
        const delay = random.int(0, 300);
        while (stream.acknowledged.size < acknowledgements && performance.now() - started < 10_000) await sleep(5);
        await sleep(delay);
        totals.killedAfterMs.push(Math.round(performance.now() - started));
        await host.crash();
        await running;
        // Soft: a wrong answer is reported, and the rounds still check what survived each crash.
        expect.soft(stream.serverErrors, `round ${round}: answers ≥ 500`).toEqual([]);
        expect.soft(stream.submitRefusals.slice(0, 5), `round ${round}: submits of just-built payloads refused (first 5 of ${stream.submitRefusals.length})`).toEqual([]);
        totals.accepted += stream.accepted.size;
        totals.acknowledged += stream.acknowledged.size;
        for (const [hash, answer] of stream.acknowledged) acknowledged.set(hash, answer);

        host = await startChildHost({ data, blocks: blocksOf(round + 1) });
        await checkAfterRestart(host.url, round, acknowledged, stream.accepted);
      }
      console.log(`crash.test: ${ROUNDS} kills after ${totals.killedAfterMs.join(', ')} ms; ${totals.accepted} accepted, ${totals.acknowledged} acknowledged`);
      // A run in which nothing was ever acknowledged would prove nothing.
      expect(totals.acknowledged).toBeGreaterThan(ROUNDS);
    } finally {
      await host.stop();
    }
  });
});

async function checkAfterRestart(url: string, round: number, acknowledged: Map<string, Acknowledgement>, accepted: Map<string, Accepted>): Promise<void> {
  const dump = await exportedLedger(url);
  expect(ledgerViolations(dump), `round ${round}: ledger invariants after restart`).toEqual([]);

  const stored = new Map(dump.extrinsics.map((x) => [x.hash, x]));
  const lost: string[] = [];
  for (const [hash, ack] of acknowledged) {
    const record = stored.get(hash);
    const said = `${ack.isError ? 'Error' : 'InBlock'} in block ${ack.block ? `${ack.block.number} ${ack.block.hash}` : '(not named)'}`;
    if (!record) lost.push(`${hash} (acknowledged ${said}) is gone`);
    else if (record.status !== (ack.isError ? 'Error' : 'InBlock') || record.blockNumber === null || (ack.block && (record.blockNumber !== ack.block.number || record.blockHash !== ack.block.hash))) {
      lost.push(`${hash} was acknowledged ${said}, now ${record.status} in block ${record.blockNumber} ${record.blockHash}`);
    }
  }
  expect(lost, `round ${round}: acknowledged extrinsics after restart`).toEqual([]);

  // Every hash answered 2xx at submit keeps a definite status, asked the way a client asks.
  const indefinite: string[] = [];
  for (const [hash, { operation }] of accepted) {
    if (acknowledged.has(hash)) continue;
    const answer = await request(`${url}/extrinsic/status?hash=${hash}`, 'GET');
    if (answer.status !== 200 || !DEFINITE.includes(answer.json.status)) indefinite.push(`${operation} ${hash}: ${answer.status} ${JSON.stringify(answer.json).slice(0, 200)}`);
    else if (answer.json.status === 'Invalid' && !answer.json.error?.message) indefinite.push(`${operation} ${hash}: Invalid without a reason`);
  }
  expect(indefinite, `round ${round}: accepted hashes after restart`).toEqual([]);
}
