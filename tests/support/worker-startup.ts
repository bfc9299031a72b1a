// Running a built service worker's top-level code in Node, as a browser starts it, and listing
// every exception thrown meanwhile, caught or not: under a debugger (test runners attach one to
// every worker) each thrown error's stack is recorded with source positions, which at top level
// means parsing the whole bundle again (scripts/no-startup-throw.mjs).
import { Session } from 'node:inspector';
import { Script } from 'node:vm';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';

/** What a service worker's global scope offers a bundle at `scriptUrl` while its top-level code runs. */
export function serviceWorkerScope(scriptUrl: string): object & { listeners: string[] } {
  const listeners: string[] = [];
  const scope: Record<string, unknown> = {
    console,
    location: new URL(scriptUrl),
    registration: { scope: new URL('/', scriptUrl).href },
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
  return scope as object & { listeners: string[] };
}

/** Run `code` (named `filename`) in `context` and return every exception thrown meanwhile, caught or not. */
export function thrownWhileRunning(code: string, context: object, filename = 'worker.js'): string[] {
  const script = new Script(code, { filename });
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
