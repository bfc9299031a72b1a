// An acknowledgement waits for the disk. SIGKILL (crash.test.ts) keeps the OS page cache, so it
// cannot tell a synced commit from one still in memory; this test watches the system calls of a
// real host process instead (strace): for each `use=Result` submit, the block's transaction must
// be written to the write-ahead log and fsynced before the first byte of the HTTP answer is
// written to the socket. The same run with a test fault that turns the host's syncing off
// (unsynced-commits.mjs, synchronous=OFF) must be caught, or the test could not fail.
//
// Needs strace and permission to ptrace (Debian: `apt-get install strace`; .ci/run installs it).
// Without them the test fails, saying so: a durability proof that silently skips proves nothing.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHostOnce, startChildHost, tempDirectory } from './child-host';
import { request } from './signed-writes';
import { parseTrace, STRACE_ARGS, unsyncedAcknowledgements, type Acknowledged } from './syscall-trace';

const SUBMITS = 5;
const UNSYNCED_FAULT = join(import.meta.dirname, 'unsynced-commits.mjs');
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';

const temp = tempDirectory('opalite-durable-ack-');
afterAll(() => temp.remove());

/** Why strace cannot watch a process here, or null when it can. */
function straceMissing(): string | null {
  const probe = spawnSync('strace', ['-f', '-qq', '-e', 'trace=fsync', '-o', '/dev/null', process.execPath, '-e', '0'], { encoding: 'utf8' });
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return 'strace is not installed (Debian: apt-get install strace; .ci/run installs it)';
  if (probe.status !== 0) return `strace cannot trace a process here (is ptrace permitted? kernel.yama.ptrace_scope, CAP_SYS_PTRACE): ${probe.stderr || probe.error}`;
  return null;
}

let missing: string | null = null;
beforeAll(() => {
  missing = straceMissing();
  if (!missing) buildHostOnce();
}, 120_000);

/** A host under strace on a new ledger: `SUBMITS` custodial transfers with `use=Result`, then its log checked. */
async function tracedSubmits(name: string, nodeOptions: string[]): Promise<{ problems: string[]; acknowledged: Acknowledged[] }> {
  const data = join(temp.dir, `${name}.sqlite`);
  const log = join(temp.dir, `${name}.strace`);
  const host = await startChildHost({ data, launcher: ['strace', ...STRACE_ARGS, '-o', log], nodeOptions, extraArgs: ['--verify-threads', '0'] });
  const acknowledged: Acknowledged[] = [];
  try {
    for (let i = 0; i < SUBMITS; i++) {
      const answer = await request(`${host.url}/balance/transfer?use=Result`, 'POST', { address: ALICE, destination: BOB, amount: '1' }, { authorization: 'Seed //Alice' });
      expect(answer.status, JSON.stringify(answer.json)).toBe(201);
      const status = await request(`${host.url}/extrinsic/status?hash=${answer.json.hash}`, 'GET');
      expect(status.json.status).toBe('InBlock');
      acknowledged.push({ extrinsic: answer.json.hash, block: status.json.blockHash });
    }
  } finally {
    // The host is strace's child: stop it (strace then exits with it, its log complete).
    const strace = host.child.pid!;
    const node = Number(readFileSync(`/proc/${strace}/task/${strace}/children`, 'utf8').trim().split(/\s+/)[0]);
    process.kill(node, 'SIGTERM');
    expect((await host.exited).code).toBe(0);
  }
  const problems = unsyncedAcknowledgements(parseTrace(readFileSync(log, 'utf8')), `${data}-wal`, acknowledged);
  return { problems, acknowledged };
}

describe('an acknowledged write is on disk before it is acknowledged', () => {
  it('answers a use=Result submit only after its block is written to the log and fsynced', { timeout: 240_000 }, async () => {
    expect(missing, missing ?? '').toBeNull();
    const { problems, acknowledged } = await tracedSubmits('durable', []);
    expect(acknowledged).toHaveLength(SUBMITS);
    expect(problems).toEqual([]);
  });

  it('catches a host whose commits are not synced (the test can fail)', { timeout: 240_000 }, async () => {
    expect(missing, missing ?? '').toBeNull();
    const { problems, acknowledged } = await tracedSubmits('unsynced', ['--import', UNSYNCED_FAULT]);
    expect(acknowledged).toHaveLength(SUBMITS);
    expect(problems).toEqual(acknowledged.map(({ extrinsic, block }) => `${extrinsic}: answered while block ${block} was not yet synced to disk`));
  });
});
