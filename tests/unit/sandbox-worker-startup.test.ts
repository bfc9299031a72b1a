// The sandbox worker's top-level code throws nothing, not even an error it catches itself: under a
// debugger (test runners attach one to every worker) each thrown error's stack is recorded with
// source positions, which at top level means parsing the whole bundle again (scripts/no-startup-throw.mjs).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandboxWorker } from '../../scripts/build-sandbox-worker.mjs';
import { serviceWorkerScope, thrownWhileRunning } from '../support/worker-startup';

const dir = mkdtempSync(join(tmpdir(), 'opalite-sandbox-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the sandbox worker starting', () => {
  it('runs its top-level code without throwing, and registers its handlers', async () => {
    const outFile = join(dir, 'opalite-sandbox-worker.js');
    await buildSandboxWorker({ outFile, quiet: true });
    const scope = serviceWorkerScope('http://127.0.0.1:4173/opalite-sandbox-worker.js');
    const context = createContext(scope);
    // The check catches a throw: a caught one in the same context is reported.
    expect(thrownWhileRunning('try { null.x } catch {}', context)).toEqual([expect.stringContaining('TypeError')]);
    expect(thrownWhileRunning(readFileSync(outFile, 'utf8'), context, 'opalite-sandbox-worker.js')).toEqual([]);
    expect(scope.listeners).toEqual(expect.arrayContaining(['install', 'activate', 'fetch']));
  }, 60_000);
});
