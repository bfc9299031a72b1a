// One writer per ledger file, with real host processes (`node dist/server/main.js --data …`):
// ten pairs of hosts started at the same moment, each pair on one file (half of them beside the
// lock file of a host that crashed), and hosts started beside a lock file that its creator holds
// without having written anything yet. Exactly one host of a pair serves; the other refuses with
// a message saying who has the file and what to do.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdSqliteLock } from '../../support/sqlite-lock-holder';
import { buildHostOnce, HOST_MAIN, ROOT, tempDirectory } from './child-host';

const PAIRS = 10;
/**
 * Loaded before the host's own code: waits until the file named by OPALITE_TEST_START exists,
 * so every process of a round has started and loaded Node before any of them opens its ledger.
 */
const START_BARRIER = `data:text/javascript,${encodeURIComponent(
  "import { existsSync } from 'node:fs'; const go = process.env.OPALITE_TEST_START; while (go && !existsSync(go)) await new Promise((r) => setTimeout(r, 2));"
)}`;

const temp = tempDirectory('opalite-owner-lock-');
const children: ChildProcess[] = [];

beforeAll(buildHostOnce, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  temp.remove();
});

type Outcome = { serving: string } | { refused: { code: number | null; output: string } };

interface Started {
  child: ChildProcess;
  outcome: Promise<Outcome>;
  output(): string;
}

/** A host process on `data`; its outcome is the URL it serves at, or how it exited. */
function startHost(data: string, env: Record<string, string> = {}): Started {
  const args = ['--import', START_BARRIER, HOST_MAIN, '--port', '0', '--data', data, '--verify-threads', '0'];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  const outcome = new Promise<Outcome>((resolve) => {
    const seen = () => {
      const url = /(http:\/\/127\.0\.0\.1:\d+\/sandbox\/v1)/.exec(output);
      if (url) resolve({ serving: url[1] });
    };
    child.stdout!.on('data', (d) => {
      output += d;
      seen();
    });
    child.stderr!.on('data', (d) => (output += d));
    // 'close', not 'exit': the process may exit before its last words are read from its pipes.
    child.once('close', (code) => resolve({ refused: { code, output } }));
  });
  return { child, outcome, output: () => output };
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

async function answers(url: string): Promise<number> {
  const response = await fetch(`${url}/common/chain-properties`);
  await response.arrayBuffer();
  return response.status;
}

describe('one writer per ledger file', () => {
  it(`of ${PAIRS} pairs of hosts started at the same moment on one file each, exactly one of each pair serves`, { timeout: 360_000 }, async () => {
    // The lock file a crashed host leaves (killed while serving): both hosts of a pair find it.
    const crashed = startHost(join(temp.dir, 'crashed.sqlite'));
    expect(await crashed.outcome, crashed.output()).toHaveProperty('serving');
    crashed.child.kill('SIGKILL');
    await new Promise((resolve) => crashed.child.once('exit', resolve));

    const go = join(temp.dir, 'go');
    const pairs = Array.from({ length: PAIRS }, (_, i) => {
      const data = join(temp.dir, `pair-${i}.sqlite`);
      if (i % 2 === 1) copyFileSync(join(temp.dir, 'crashed.sqlite.lock'), `${data}.lock`);
      return { data, hosts: [startHost(data, { OPALITE_TEST_START: go }), startHost(data, { OPALITE_TEST_START: go })] };
    });
    writeFileSync(go, ''); // every process waits for this, then all open their ledgers together

    const problems: string[] = [];
    for (const [i, { data, hosts }] of pairs.entries()) {
      const outcomes = await Promise.all(hosts.map((h) => h.outcome));
      const serving = outcomes.flatMap((o, k) => ('serving' in o ? [k] : []));
      if (serving.length !== 1) {
        problems.push(`pair ${i}: ${serving.length} hosts serve: ${hosts.map((h) => h.output().slice(-300)).join(' | ')}`);
        continue;
      }
      const winner = hosts[serving[0]];
      const loser = outcomes[1 - serving[0]] as Extract<Outcome, { refused: unknown }>;
      // The one serving answers, and the one refused said why, naming the file, the host that has it and what to do.
      const status = await answers((outcomes[serving[0]] as { serving: string }).serving);
      if (status !== 200) problems.push(`pair ${i}: the serving host answered ${status}`);
      const message = new RegExp(
        `^opalite: Cannot open the ledger database ${escape(data)}: it is in use by another Opalite host ` +
          `\\((process ${winner.child.pid}|it is still starting, or its process id is not recorded)\\), which holds the lock on ${escape(data)}\\.lock; stop that host first`,
        'm'
      );
      if (loser.refused.code !== 1 || !message.test(loser.refused.output)) {
        problems.push(`pair ${i}: the other host exited ${loser.refused.code} saying ${JSON.stringify(loser.refused.output.slice(-400))}`);
      }
    }
    expect(problems).toEqual([]);
    // The hosts that serve stop cleanly (the refused ones have exited already).
    for (const { hosts } of pairs) for (const h of hosts) if (h.child.exitCode === null) expect(await stop(h.child)).toBe(0);
  });

  it('a host started beside an empty lock file whose creator is alive does not take it over, and says what to do', { timeout: 120_000 }, async () => {
    const data = join(temp.dir, 'empty-lock.sqlite');
    // A host that has created and locked the lock file but not yet written its pid into it.
    const creator = await holdSqliteLock(`${data}.lock`, ['PRAGMA locking_mode = EXCLUSIVE', 'BEGIN EXCLUSIVE']);
    try {
      const refused = await startHost(data).outcome;
      expect(refused).toMatchObject({ refused: { code: 1 } });
      const { output } = (refused as Extract<Outcome, { refused: unknown }>).refused;
      expect(output).toContain(`opalite: Cannot open the ledger database ${data}: it is in use by another Opalite host (it is still starting, or its process id is not recorded), which holds the lock on ${data}.lock; stop that host first`);
      expect(existsSync(data), 'the refused host created no database').toBe(false);
    } finally {
      await creator.stop();
    }
    // The creator gone (it died before writing), the next host serves.
    const next = startHost(data);
    const outcome = await next.outcome;
    expect(outcome, next.output()).toHaveProperty('serving');
    expect(await answers((outcome as { serving: string }).serving)).toBe(200);
    expect(await stop(next.child)).toBe(0);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
