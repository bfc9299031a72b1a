// `opalite/testing` and the package's types from the packed tarball, in a project of its own:
// a script importing the fixtures drives a ledger through them, and TypeScript (node16, bundler
// and node10 resolution) compiles a consumer against the shipped declarations.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDirectory } from '../contract/durability/child-host';
import { installPacked } from './tarball';

const run = promisify(execFile);
const project = tempDirectory('opalite-testing-');

beforeAll(async () => {
  writeFileSync(join(project.dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await installPacked(project.dir);
});
afterAll(() => project.remove());

/** Runs in the consumer project: everything a test would do with createTestLedger and the Playwright fixture. */
const CONSUMER_SCRIPT = String.raw`
import { createTestLedger, opaliteFixtures, opaliteRevertingFixtures } from 'opalite/testing';
const out = {};
const refused = (url) => fetch(url).then(() => 'answered', () => 'refused');
const ledger = await createTestLedger({ blocks: 'manual' });
const post = (path, body, seed) =>
  fetch(ledger.baseUrl + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Seed ' + seed }, body: JSON.stringify(body) }).then((r) => r.json());
const collection = (address) => ({ address, name: 'T', description: 'd', tokenPrefix: 'T' });
out.accounts = ledger.accounts;
out.seeds = ledger.seeds;
out.sameUrl = ledger.url === ledger.baseUrl && ledger.url.startsWith(ledger.origin + '/');
const { hash } = await post('/collections?use=Submit', collection(ledger.accounts.bob), ledger.seeds.bob);
out.hash = hash;
out.logWhileWaiting = (await ledger.extrinsics()).length;
out.waiting = (await fetch(ledger.url + '/extrinsic/status?hash=' + hash).then((r) => r.json())).status;
out.sealed = await ledger.sealBlock();
out.included = (await ledger.extrinsics({ address: ledger.accounts.bob })).map((r) => [r.hash, r.status, r.parsed]);
out.emptySeal = await ledger.sealBlock();
out.mode = await ledger.setBlockMode('instant');
out.instant = (await post('/collections?use=Result', collection(ledger.accounts.alice), ledger.seeds.alice)).parsed;
out.status = await ledger.status();
out.badMode = await ledger.setBlockMode('interval:5').catch((e) => ({ name: e.name, status: e.status, message: e.message }));
const balanceOf = (a) => fetch(ledger.url + '/balance?address=' + a).then((r) => r.json()).then((b) => b.freeBalance.raw);
const snapshot = await ledger.snapshot();
const bobBefore = await balanceOf(ledger.accounts.bob);
const sent = await post('/balance/transfer?use=Result', { address: ledger.accounts.alice, destination: ledger.accounts.bob, amount: 7 }, ledger.seeds.alice);
out.snapshot = { snapshot, bobBefore, bobAfterSend: await balanceOf(ledger.accounts.bob) };
out.reverted = await ledger.revert(snapshot.snapshotId);
out.afterRevert = {
  bob: await balanceOf(ledger.accounts.bob),
  head: (await ledger.status()).head,
  sent: (await fetch(ledger.url + '/extrinsic/status?hash=' + sent.hash).then((r) => r.json())).error
};
out.revertUnknown = await ledger.revert('999').catch((e) => ({ name: e.name, status: e.status }));
out.reset = await ledger.reset({ rules: 'unique' });
out.afterReset = {
  extrinsics: (await ledger.extrinsics()).length,
  status: await ledger.status(),
  balances: await Promise.all(Object.values(ledger.accounts).map((a) => fetch(ledger.url + '/balance?address=' + a).then((r) => r.json()).then((b) => b.freeBalance.raw)))
};
await ledger.stop();
await ledger.stop();
out.stopped = await refused(ledger.url + '/dev/status');
const [fixture, options] = opaliteFixtures.opalite;
out.fixtureSource = fixture.toString();
out.fixtureOptions = options;
let seen;
await fixture({}, async (given) => {
  seen = given.url;
  out.fixtureHead = (await given.status()).head.number;
});
out.fixtureStopped = await refused(seen + '/dev/status');
const [workerFixture, workerOptions] = opaliteRevertingFixtures.opaliteWorkerLedger;
const [testFixture, testOptions] = opaliteRevertingFixtures.opalite;
out.reverting = { workerOptions, testOptions, testSource: testFixture.toString(), heads: [] };
let shared;
await workerFixture({}, async (worker) => {
  shared = worker;
  for (let i = 0; i < 2; i++) {
    await testFixture({ opaliteWorkerLedger: worker }, async (given) => {
      out.reverting.same = given === worker;
      await fetch(given.url + '/collections?use=Result', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' }, body: JSON.stringify(collection(given.accounts.alice)) });
      out.reverting.heads.push((await given.status()).head.number);
    });
  }
  out.reverting.headAfter = (await worker.status()).head.number;
});
out.reverting.stopped = await refused(shared.url + '/dev/status');
console.log(JSON.stringify(out));
`;

describe('opalite/testing', () => {
  let out: any;

  beforeAll(async () => {
    writeFileSync(join(project.dir, 'uses-testing.mjs'), CONSUMER_SCRIPT);
    const { stdout } = await run(process.execPath, ['uses-testing.mjs'], { cwd: project.dir, timeout: 90_000 });
    out = JSON.parse(stdout);
  });

  it('names the six dev accounts, funded alike at genesis (and again after a reset)', () => {
    expect(out.accounts).toEqual({
      alice: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
      bob: '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty',
      charlie: '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y',
      dave: '5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy',
      eve: '5HGjWAeFDfFCWPsjFQdVV2Msvz2XtMktvgocEZcCj68kUMaw',
      ferdie: '5CiPPseXPECbkjWCa6MnjNokrgYjMqmKndv2rSnekmSK2DjL'
    });
    expect(out.seeds).toEqual({ alice: '//Alice', bob: '//Bob', charlie: '//Charlie', dave: '//Dave', eve: '//Eve', ferdie: '//Ferdie' });
    expect(out.sameUrl).toBe(true);
    const balances: string[] = out.afterReset.balances;
    expect(BigInt(balances[0])).toBeGreaterThan(0n);
    expect(new Set(balances).size).toBe(1);
  });

  it('with manual blocks an extrinsic waits (Ready, not yet in the log) until sealBlock() puts it in a block', () => {
    expect(out.waiting).toBe('Ready');
    expect(out.logWhileWaiting).toBe(0);
    expect(out.sealed).toEqual({ number: 1, hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), extrinsics: [out.hash] });
    expect(out.included).toEqual([[out.hash, 'InBlock', { collectionId: 1 }]]);
    expect(out.emptySeal).toMatchObject({ number: 2, extrinsics: [] });
  });

  it('setBlockMode() switches to instant blocks; a refused mode is a TestLedgerError carrying the API’s status', () => {
    expect(out.mode).toEqual({ kind: 'instant' });
    expect(out.instant).toEqual({ collectionId: 2 });
    expect(out.status).toMatchObject({ host: 'node', network: 'sandbox', rules: 'spec', blockMode: { kind: 'instant' }, head: { number: 3 } });
    expect(out.badMode).toMatchObject({ name: 'TestLedgerError', status: 400, message: expect.stringContaining('ms must be at least 100') });
  });

  it('snapshot() and revert(): the state as it was, the later extrinsic Invalid (Reverted); an unknown snapshot is a TestLedgerError', () => {
    const { snapshot, bobBefore, bobAfterSend } = out.snapshot;
    expect(snapshot).toMatchObject({ snapshotId: expect.any(String), blockNumber: out.status.head.number, blockHash: out.status.head.hash });
    expect(BigInt(bobAfterSend) - BigInt(bobBefore)).toBe(7n * 10n ** 18n);
    expect(out.reverted).toEqual({ number: snapshot.blockNumber, hash: snapshot.blockHash });
    expect(out.afterRevert.bob).toBe(bobBefore);
    expect(out.afterRevert.head).toEqual(out.reverted);
    expect(out.afterRevert.sent).toMatchObject({ details: { name: 'Reverted' } });
    expect(out.revertUnknown).toEqual({ name: 'TestLedgerError', status: 404 });
  });

  it('the reverting Playwright fixtures: one ledger per worker, each test starts from the same head and is reverted after', () => {
    expect(out.reverting.workerOptions).toEqual({ scope: 'worker' });
    expect(out.reverting.testOptions).toEqual({ scope: 'test' });
    // Playwright reads the names before any `: alias` (the packed build renames the binding).
    expect(out.reverting.testSource).toMatch(/^async\s*\(\s*\{\s*opaliteWorkerLedger\s*(:\s*\w+\s*)?\}\s*,/);
    expect(out.reverting.same).toBe(true);
    expect(out.reverting.heads).toEqual([1, 1]);
    expect(out.reverting.headAfter).toBe(0);
    expect(out.reverting.stopped).toBe('refused');
  });

  it('reset() starts a new chain with the rules asked for and an empty log', () => {
    expect(out.reset).toMatchObject({ number: 0, rules: 'unique', genesisHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(out.reset.genesisHash).not.toBe(out.status.genesisHash);
    expect(out.afterReset.extrinsics).toBe(0);
    expect(out.afterReset.status).toMatchObject({ rules: 'unique', head: { number: 0 }, genesisHash: out.reset.genesisHash });
  });

  it('stop() stops the host (twice is harmless)', () => {
    expect(out.stopped).toBe('refused');
  });

  it('the Playwright fixture: `{}` first (Playwright reads it for dependencies), test-scoped, a live ledger during the test, stopped after', () => {
    expect(out.fixtureSource).toMatch(/^async\s*\(\s*\{\s*\}\s*,/);
    expect(out.fixtureOptions).toEqual({ scope: 'test' });
    expect(out.fixtureHead).toBe(0);
    expect(out.fixtureStopped).toBe('refused');
  });
});

/** Compiles in the consumer project against the shipped .d.ts only. */
const CONSUMER_TYPES = `
import { startHost, parseBlockMode, type OpaliteHost, type StartHostOptions, type BlockMode } from 'opalite/node';
import { createTestLedger, opaliteFixtures, opaliteRevertingFixtures, DEV_ADDRESSES, type TestLedger, type SealedHead, type LedgerSnapshot } from 'opalite/testing';

const options: StartHostOptions = { blocks: 'interval:500', rules: 'unique', cors: ['http://localhost:*'], quiet: true };
// @ts-expect-error: not a block mode
const wrongBlocks: StartHostOptions = { blocks: 'sometimes' };
// @ts-expect-error: not a rule set
const wrongRules: StartHostOptions = { rules: 'polkadot' };
const mode: BlockMode = parseBlockMode('manual');

export async function use(): Promise<void> {
  const host: OpaliteHost = await startHost(options);
  const url: string = host.url;
  await host.stop();
  const ledger: TestLedger = await createTestLedger({ blocks: 'manual' });
  const head: SealedHead = await ledger.sealBlock();
  const hashes: string[] = head.extrinsics;
  const alice: string = ledger.accounts.alice === DEV_ADDRESSES.alice ? ledger.seeds.alice : url;
  await ledger.setBlockMode({ kind: 'interval', ms: 1000 });
  const snapshot: LedgerSnapshot = await ledger.snapshot();
  const back: { number: number; hash: string } = await ledger.revert(snapshot.snapshotId);
  await ledger.stop();
  void back;
  void [wrongBlocks, wrongRules, mode, hashes, alice];
}

// What Playwright's test.extend() takes for a test fixture (a subset of its Fixtures type), without Playwright.
type PlaywrightFixture<T> = [(args: any, use: (value: T) => Promise<void>, testInfo: unknown) => any, { scope?: 'test'; auto?: boolean; timeout?: number }];
export const fixtures: { opalite: PlaywrightFixture<TestLedger> } = opaliteFixtures;
export const reverting: { opaliteWorkerLedger: [unknown, { scope: 'worker' }]; opalite: [unknown, { scope: 'test' }] } = opaliteRevertingFixtures;
`;

describe('the shipped declarations', () => {
  for (const resolution of ['node16', 'bundler', 'node10'] as const) {
    it(`compile a consumer with moduleResolution ${resolution}`, async () => {
      const module = resolution === 'node16' ? 'node16' : resolution === 'bundler' ? 'esnext' : 'commonjs';
      writeFileSync(join(project.dir, `consumer-${resolution}.ts`), CONSUMER_TYPES);
      // No ambient types (not even @types/node): the declarations must stand on their own.
      const compilerOptions = { noEmit: true, strict: true, target: 'es2022', lib: ['es2022', 'dom'], module, moduleResolution: resolution, types: [] };
      writeFileSync(join(project.dir, `tsconfig-${resolution}.json`), JSON.stringify({ compilerOptions, files: [`consumer-${resolution}.ts`] }));
      const tsc = join(project.dir, 'node_modules', 'typescript', 'bin', 'tsc');
      const result = await run(process.execPath, [tsc, '-p', `tsconfig-${resolution}.json`], { cwd: project.dir, timeout: 180_000 }).then(
        () => ({ ok: true, output: '' }),
        (error: { stdout?: string }) => ({ ok: false, output: error.stdout ?? String(error) })
      );
      expect(result.output).toBe('');
      expect(result.ok).toBe(true);
    });
  }
});
