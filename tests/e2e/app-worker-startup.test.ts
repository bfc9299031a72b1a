// The app's built service worker (the one this suite serves) starts without throwing, as the
// sandbox's does (tests/unit/sandbox-worker-startup.test.ts): SvelteKit builds it without our Vite
// plugins, so scripts/app-worker-no-startup-throw.mjs rewrites it after the build. No browser:
// the worker's top-level code runs in Node under the inspector.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { serviceWorkerScope, thrownWhileRunning } from '../support/worker-startup';
import { BUILD_DIR } from './support';

describe('the app service worker starting', () => {
  it('runs its top-level code without throwing, and registers its handlers', () => {
    const scope = serviceWorkerScope('http://127.0.0.1:4173/service-worker.js');
    const context = createContext(scope);
    expect(thrownWhileRunning('try { null.x } catch {}', context)).toEqual([expect.stringContaining('TypeError')]);
    expect(thrownWhileRunning(readFileSync(join(BUILD_DIR, 'service-worker.js'), 'utf8'), context, 'service-worker.js')).toEqual([]);
    expect(scope.listeners).toEqual(expect.arrayContaining(['install', 'activate', 'fetch', 'message']));
  });
});
