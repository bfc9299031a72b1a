// The `opalite` command from the packed tarball, installed into a project of its own: `serve`
// answers the real @unique-nft/sdk, `init` copies the sandbox worker, and mistakes get usage.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Sdk from '@unique-nft/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDirectory } from '../contract/durability/child-host';
import { ALICE, account } from '../contract/support';
import { runOpalite, startServe, type Serving } from './cli';
import { installPacked } from './tarball';

const project = tempDirectory('opalite-cli-');
const installed = join(project.dir, 'node_modules', 'opalite');
let serving: Serving | undefined;

beforeAll(() => installPacked(project.dir));
afterAll(async () => {
  await serving?.stop();
  project.remove();
});

/** The version in the tarball's own package.json (what /dev/status must name, never "dev"). */
function tarballVersion(): string {
  const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
  expect(version).toMatch(/^\d+\.\d+\.\d+/);
  return version;
}

/** The ledger database the host said it uses. */
const databaseOf = (output: string) => /Ledger database: (\S+)/.exec(output)?.[1];

describe('opalite serve', () => {
  it('answers the real @unique-nft/sdk: a collection created and read back; SIGTERM stops it and deletes the temporary ledger', async () => {
    serving = await startServe(project.dir, ['--port', '0', '--verify-threads', '1']);
    const alice = account('//Alice');
    const sdk = new Sdk({ baseUrl: serving.url, signer: alice.signer, waitBetweenStatusRequestsInMs: 20, statusTotalTimeoutInMs: 10_000 });
    const created = await sdk.collection.create.submitWaitResult({ address: ALICE, name: 'Packed', description: 'From the tarball', tokenPrefix: 'PKG' } as never);
    expect(created.parsed?.collectionId).toBe(1);
    const collection = await sdk.collection.get({ collectionId: 1 });
    expect(collection).toMatchObject({ id: 1, owner: ALICE, name: 'Packed', description: 'From the tarball', tokenPrefix: 'PKG' });

    const database = databaseOf(serving.output());
    expect(database && existsSync(database)).toBe(true);
    expect(await serving.stop()).toBe(0);
    serving = undefined;
    expect(existsSync(database!)).toBe(false);
  });

  it('forwards its options: rules, block mode and a kept database', async () => {
    const data = join(project.dir, 'kept.db');
    serving = await startServe(project.dir, ['--port', '0', '--rules', 'unique', '--blocks', 'manual', '--data', data, '--verify-threads', '0']);
    const status = await (await fetch(`${serving.url}/dev/status`)).json();
    expect(status).toMatchObject({ host: 'node', rules: 'unique', blockMode: { kind: 'manual' }, appVersion: tarballVersion() });
    expect(databaseOf(serving.output())).toBe(data);
    expect(await serving.stop()).toBe(0);
    serving = undefined;
    expect(existsSync(data)).toBe(true);
  });

  it("opalite/node's startHost() names the tarball's version in /dev/status too", async () => {
    const script = "import { startHost } from 'opalite/node'; const host = await startHost({ verifyThreads: 0 }); const status = await (await fetch(host.url + '/dev/status')).json(); await host.stop(); console.log(status.appVersion);";
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: project.dir, timeout: 90_000 });
    expect(stdout.trim()).toBe(tarballVersion());
  });

  it('refuses a bad option with its usage and exit code 2', async () => {
    const run = await runOpalite(project.dir, ['serve', '--blocks', 'sometimes']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--blocks must be instant, manual or interval:<ms>, not "sometimes"');
    expect(run.stderr).toContain('--verify-threads');
  });
});

describe('opalite init', () => {
  it('copies the package’s sandbox worker into a new folder and says what comes next', async () => {
    const run = await runOpalite(project.dir, ['init', 'web/public']);
    expect(run.code).toBe(0);
    const written = join(project.dir, 'web', 'public', 'opalite-sandbox-worker.js');
    // Buffer.equals: toEqual walks a 900 KiB buffer byte by byte, for seconds.
    expect(readFileSync(written).equals(readFileSync(join(installed, 'dist', 'pkg', 'sandbox-worker.js')))).toBe(true);
    expect(run.stdout).toContain(join('web', 'public', 'opalite-sandbox-worker.js'));
    expect(run.stdout).toContain("import { startSandbox } from 'opalite/browser'");
  });

  it('writes into an existing folder again (an upgrade)', async () => {
    mkdirSync(join(project.dir, 'static'));
    writeFileSync(join(project.dir, 'static', 'opalite-sandbox-worker.js'), 'an old worker');
    expect((await runOpalite(project.dir, ['init', 'static'])).code).toBe(0);
    expect(readFileSync(join(project.dir, 'static', 'opalite-sandbox-worker.js'), 'utf8')).not.toBe('an old worker');
  });

  it('refuses a path that is a file, clearly and with exit code 1, writing nothing', async () => {
    writeFileSync(join(project.dir, 'not-a-folder'), 'x');
    const run = await runOpalite(project.dir, ['init', 'not-a-folder']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('opalite: not-a-folder is a file, not a folder: give the folder your app serves at its root\n');
    expect(readFileSync(join(project.dir, 'not-a-folder'), 'utf8')).toBe('x');
  });

  it('without a folder: usage and exit code 2', async () => {
    const run = await runOpalite(project.dir, ['init']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/init needs the folder[\s\S]*Usage: opalite <command>/);
  });
});

describe('opalite itself', () => {
  it('--help lists both commands on stdout', async () => {
    const run = await runOpalite(project.dir, ['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: opalite <command>/);
    expect(run.stdout).toMatch(/^ {2}serve /m);
    expect(run.stdout).toMatch(/^ {2}init <publicDir>/m);
  });

  it('--version is the package’s version', async () => {
    const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    const run = await runOpalite(project.dir, ['--version']);
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('an unknown command: usage on stderr, exit code 2', async () => {
    const run = await runOpalite(project.dir, ['deploy']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^opalite: unknown command "deploy"\n\nUsage: opalite <command>/);
  });
});
