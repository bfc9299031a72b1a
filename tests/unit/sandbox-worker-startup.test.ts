// The sandbox worker's top-level code throws nothing, not even an error it catches itself: under a
// debugger (test runners attach one to every worker) each thrown error's stack is recorded with
// source positions, which at top level means parsing the whole bundle again (scripts/no-startup-throw.mjs).
import { Session } from 'node:inspector';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext, Script } from 'node:vm';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandboxWorker } from '../../scripts/build-sandbox-worker.mjs';

const dir = mkdtempSync(join(tmpdir(), 'opalite-sandbox-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a service worker's global scope offers the bundle while its top-level code runs. */
function serviceWorkerScope(): object {
  const listeners: string[] = [];
  const scope: Record<string, unknown> = {
    console,
    location: new URL('http://127.0.0.1:4173/opalite-sandbox-worker.js'),
    registration: { scope: 'http://127.0.0.1:4173/' },
    clients: { claim: async () => {} },
    skipWaiting: async () => {},
    addEventListener: (type: string) => listeners.push(type),
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    listeners
  };
  const shared = ['TextEncoder', 'TextDecoder', 'URL', 'URLSearchParams', 'Request', 'Response', 'Headers', 'fetch', 'crypto', 'performance', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'structuredClone', 'atob', 'btoa', 'Blob', 'ReadableStream', 'WritableStream', 'TransformStream', 'AbortController', 'AbortSignal', 'Event', 'EventTarget', 'CustomEvent', 'MessageChannel', 'BroadcastChannel', 'DOMException', 'WebAssembly'];
  for (const name of shared) scope[name] = (globalThis as Record<string, unknown>)[name];
  scope.self = scope;
  return scope;
}

/** Run `code` in `context` and return every exception thrown meanwhile, caught or not. */
function thrownWhileRunning(code: string, context: object): string[] {
  const script = new Script(code, { filename: 'opalite-sandbox-worker.js' });
  const session = new Session();
  session.connect();
  const thrown: string[] = [];
  session.on('Debugger.paused', ({ params }) => {
    const description = (params.data as { description?: string } | undefined)?.description ?? String(params.reason);
    thrown.push(description.split('\n')[0].slice(0, 200));
    session.post('Debugger.resume');
  });
  session.post('Debugger.enable');
  session.post('Debugger.setPauseOnExceptions', { state: 'all' });
  try {
    script.runInContext(context);
  } finally {
    session.post('Debugger.disable');
    session.disconnect();
  }
  return thrown;
}

describe('the sandbox worker starting', () => {
  it('runs its top-level code without throwing, and registers its handlers', async () => {
    const outFile = join(dir, 'opalite-sandbox-worker.js');
    await buildSandboxWorker({ outFile, quiet: true });
    const scope = serviceWorkerScope();
    const context = createContext(scope);
    // The check catches a throw: a caught one in the same context is reported.
    expect(thrownWhileRunning('try { null.x } catch {}', context)).toEqual([expect.stringContaining('TypeError')]);
    expect(thrownWhileRunning(readFileSync(outFile, 'utf8'), context)).toEqual([]);
    expect((scope as { listeners: string[] }).listeners).toEqual(expect.arrayContaining(['install', 'activate', 'fetch']));
  }, 60_000);
});
