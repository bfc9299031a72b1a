// Another program holding the ledger's write lock (a person's `sqlite3` session in a write, here a
// process of its own): the Node host keeps answering reads over HTTP and its event loop keeps
// turning while a write waits for the lock, and the write completes once the lock is released.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../../server/host';
import { holdSqliteLock } from '../../support/sqlite-lock-holder';
import { tempDirectory } from './child-host';
import { devSigners, request, type Signer } from './signed-writes';

const temp = tempDirectory('opalite-busy-');
let host: RunningHost;
let signers: Signer[];

beforeAll(async () => {
  host = await startHost({ port: 0, dataFile: join(temp.dir, 'ledger.sqlite'), log: () => {}, verifyThreads: 0 });
  signers = await devSigners(['//Alice', '//Bob']);
});
afterAll(async () => {
  await host?.stop();
  temp.remove();
});

const transfer = (amount: string) =>
  request(`${host.url}/balance/transfer?use=Result`, 'POST', { address: signers[0].address, destination: signers[1].address, amount }, { authorization: 'Seed //Alice' });
const balanceOfBob = async () => {
  const answer = await request(`${host.url}/balance?address=${signers[1].address}`, 'GET');
  expect(answer.status).toBe(200);
  return answer.json.availableBalance as { raw: string; decimals: number };
};

describe('a ledger locked by another program', () => {
  it('keeps answering reads while a write waits for the lock, then completes the write', { timeout: 120_000 }, async () => {
    expect((await transfer('1')).status).toBe(201);
    const before = await balanceOfBob();

    const other = await holdSqliteLock(host.store.path, ['BEGIN IMMEDIATE']);
    let ticks = 0;
    const clock = setInterval(() => ticks++, 2);
    try {
      let settled = false;
      const write = transfer('5').finally(() => (settled = true));
      // Reads over HTTP while the write waits; the event loop turns meanwhile (timer callbacks run).
      // A host that slept in SQLite's busy handler answered none of this until the write had failed.
      for (let i = 0; i < 20; i++) expect(await balanceOfBob()).toEqual(before);
      while (ticks < 20) await sleep(2);
      expect(settled, 'the write still waits for the lock').toBe(false);

      await other.release();
      const written = await write;
      expect(written.status, JSON.stringify(written.json)).toBe(201);
      expect(written.json.isError).toBe(false);
      expect(BigInt((await balanceOfBob()).raw)).toBe(BigInt(before.raw) + 5n * 10n ** BigInt(before.decimals));
    } finally {
      clearInterval(clock);
      await other.stop();
    }
  });
});
