// Fault injection at the store boundary: 1,000 write failures at random points of random blocks
// (and of the pool writes at submit) on the SQLite store. Afterwards no block is partial, every
// hash answered 2xx has a definite status, and the host keeps answering. Seed printed;
// DURABILITY_SEED=<n> replays a run.
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../../server/storage/sqlite-store';
import { devRoutes } from '../../../src/lib/api/routes/dev';
import { LedgerHost } from '../../../src/lib/host/ledger-host';
import { tempDirectory } from './child-host';
import { FaultInjector } from './fault-injector';
import { ledgerViolations } from './invariants';
import { runSeed } from './random';
import { devSigners, prepareCollections, request, SignedWriteStream, type Fetcher } from './signed-writes';

const INJECTIONS = 1000;
/** Share of seals armed to fail (the others show that blocks still get written in between). */
const FAILING_SEALS = 0.7;
const BASE = 'http://opalite.test/sandbox/v1';
const FINAL = ['InBlock', 'Error', 'Invalid'];

const temp = tempDirectory('opalite-faults-');
afterAll(() => temp.remove());

describe('write failures injected at the store boundary', () => {
  it(`${INJECTIONS} failures leave no partial block and no hash without a status`, { timeout: 480_000 }, async () => {
    const random = runSeed('faults.test');
    const injector = new FaultInjector(random);
    const path = join(temp.dir, 'ledger.sqlite');
    const store = await openSqliteStore({ path, faults: injector.faults });
    const host = await LedgerHost.open({ kind: 'node', store, blockMode: { kind: 'instant' }, routes: (h) => devRoutes(h) });
    const fetcher: Fetcher = (url, init) => host.handle(new Request(url, init));
    const call = (method: string, path: string, body?: unknown) => request(`${BASE}${path}`, method, body, {}, fetcher);
    const signers = await devSigners(['//Alice', '//Bob', '//Charlie', '//Dave']);
    const collections = await prepareCollections(BASE, signers, 3, fetcher);
    host.setBlockMode({ kind: 'manual' });
    const stream = new SignedWriteStream({ baseUrl: BASE, signers, collections, random, submitWith: 'Submit', fetcher });
    // Injected failures that are not SQLite's own are logged as internal errors: keep the log quiet.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});

    /** Hashes answered 2xx and not yet final; each must always have a definite status. */
    const open = new Set<string>();
    const affected = new Set<string>();
    const problems: string[] = [];
    /** Payloads the host had just built, refused at submit with no failure injected (kept apart: the run goes on). */
    const refusals: string[] = [];
    const seals = { failed: 0, ok: 0, firedAtSubmit: 0 };
    // A countdown past a write's last statement fails nothing: aim within the length of the last seal.
    let sealLength = 30;
    try {
      for (let round = 0; injector.injected < INJECTIONS; round++) {
        // Submits; now and then with a failure armed, which may hit the pool row's write.
        const armedAtSubmit = random.next() < 0.1;
        if (armedAtSubmit) injector.arm(12);
        const refusedBefore = stream.submitRefusals.length;
        // After a failed block its extrinsics are retried one per block: submit only while few wait.
        for (let i = open.size < 8 ? random.int(1, 4) : 0; i > 0; i--) {
          const submitted = await stream.submitOne(random.pick(signers));
          if (submitted) open.add(submitted.answer.hash);
        }
        if (injector.disarm()) seals.firedAtSubmit++;
        // A payload the host just built is refused only when a failure was injected into its submit.
        else if (stream.submitRefusals.length > refusedBefore) refusals.push(...stream.submitRefusals.slice(refusedBefore).map((r) => `round ${round}: ${r}`));

        const before = (await call('GET', '/dev/status')).json.head;
        const inBatch = [...open];
        const armed = random.next() < FAILING_SEALS;
        if (armed) injector.arm(sealLength + 2);
        const seal = await call('POST', '/dev/blocks/seal');
        const fired = injector.disarm();
        if (!fired && armed) sealLength = Math.max(4, injector.statements);
        const after = (await call('GET', '/dev/status')).json.head;
        if (fired) {
          seals.failed++;
          for (const hash of inBatch) affected.add(hash);
          if (seal.status === 201) problems.push(`round ${round}: the seal failed ${fired.where} (${fired.code}) yet answered 201`);
          else if (!seal.json?.error?.message) problems.push(`round ${round}: a failed seal answered ${seal.status} without an error envelope: ${JSON.stringify(seal.json)}`);
          else if (fired.code === 'SQLITE_FULL' && seal.status !== 507) problems.push(`round ${round}: a full disk answered ${seal.status}, not 507`);
          if (after.number !== before.number || after.hash !== before.hash) problems.push(`round ${round}: a failed seal moved the head from ${before.number} to ${after.number}`);
        } else {
          seals.ok++;
          if (seal.status !== 201) problems.push(`round ${round}: a seal with no failure answered ${seal.status} ${JSON.stringify(seal.json).slice(0, 200)}`);
          else if (seal.json.block && after.number !== before.number + 1) problems.push(`round ${round}: a block was sealed but the head went from ${before.number} to ${after.number}`);
        }

        for (const hash of open) {
          const status = await call('GET', `/extrinsic/status?hash=${hash}`);
          if (status.status !== 200 || !['Ready', ...FINAL].includes(status.json.status)) {
            problems.push(`round ${round}: accepted ${hash} answers ${status.status} ${JSON.stringify(status.json).slice(0, 200)}`);
            open.delete(hash);
          } else if (status.json.status !== 'Ready') {
            if (status.json.status === 'Invalid' && !status.json.error?.message) problems.push(`round ${round}: ${hash} is Invalid without a reason`);
            open.delete(hash);
          }
        }
        if (round % 100 === 0) {
          const violations = ledgerViolations(await store.dump());
          if (violations.length) problems.push(`round ${round}: ${violations.slice(0, 5).join('; ')}`);
        }
        if (problems.length > 20) break;
      }
      expect(problems).toEqual([]);
      expect.soft(refusals.slice(0, 5), `submits of just-built payloads refused with no failure injected (first 5 of ${refusals.length})`).toEqual([]);

      // Faults off: what still waits is sealed, and every accepted hash ends with a final status.
      // An extrinsic of a failed block is retried in a block of its own, so allow one seal each.
      const finalSeals = open.size + 5;
      for (let i = 0; i < finalSeals && open.size > 0; i++) {
        expect((await call('POST', '/dev/blocks/seal')).status).toBe(201);
        for (const hash of open) {
          const status = await call('GET', `/extrinsic/status?hash=${hash}`);
          if (status.status === 200 && FINAL.includes(status.json.status)) open.delete(hash);
        }
      }
      expect([...open], 'accepted hashes still without a final status').toEqual([]);
      const finals = { InBlock: 0, Error: 0, Invalid: 0 } as Record<string, number>;
      for (const hash of affected) {
        const status = await call('GET', `/extrinsic/status?hash=${hash}`);
        expect(FINAL, `${hash} after the faults`).toContain(status.json.status);
        if (status.json.status === 'Invalid') expect(status.json.error?.message, `${hash} is Invalid without a reason`).toBeTruthy();
        finals[status.json.status]++;
      }
      expect(ledgerViolations(await store.dump())).toEqual([]);
      console.log(
        `faults.test: ${injector.injected} failures injected (${seals.failed} seals failed, ${seals.ok} succeeded, ${seals.firedAtSubmit} hit a submit); ` +
          `${stream.accepted.size} accepted, ${affected.size} in a failed block, finally ${JSON.stringify(finals)}`
      );

      // The host still answers reads and takes writes.
      expect((await call('GET', '/common/chain-properties')).status).toBe(200);
      host.setBlockMode({ kind: 'instant' });
      const transfer = await request(`${BASE}/balance/transfer?use=Result`, 'POST', { address: signers[0].address, destination: signers[1].address, amount: '1' }, { authorization: 'Seed //Alice' }, fetcher);
      expect(transfer.status, `a custodial write after the faults: ${JSON.stringify(transfer.json)}`).toBe(201);
      expect(transfer.json.isError).toBe(false);
    } finally {
      logged.mockRestore();
      host.close();
      store.close();
    }

    // The file itself, opened afresh, holds a sound ledger.
    const reopened = await openSqliteStore({ path });
    try {
      expect(ledgerViolations(await reopened.dump())).toEqual([]);
    } finally {
      reopened.close();
    }
  });
});
