import { sveltekit } from '@sveltejs/kit/vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { appWorkerNoStartupThrow } from './scripts/app-worker-no-startup-throw.mjs';

/**
 * Browser tests poll the screen for what a person would wait to see. Vitest's default of 1 s is a
 * blink on two shared cores (a Network page's first reachability check took longer in a CI run),
 * and on a machine 5–8× slower than usual 10 s was too. A ceiling: a passing poll costs the same.
 */
const BROWSER_POLL = { timeout: 60_000, interval: 50 };

/**
 * Test files that need a module graph of their own: they mock a module (vi.mock) that other files
 * import too, or start a worker whose module state a file run before them would already hold.
 */
const UNIT_OWN_MODULES = ['src/lib/codec/signature.wasm.test.ts', 'src/lib/state/signing.test.ts', 'src/sandbox/start-sandbox-worker.test.ts'];

/** The unit and chain tests' ceiling: a failing test reports then, a passing one costs what it takes. */
const UNIT_TEST_TIMEOUT_MS = 120_000;

export default defineConfig({
  plugins: [sveltekit(), appWorkerNoStartupThrow()],
  test: {
    // A worker runs its files one after another in one module graph, not a fresh one per file: on a
    // slow machine importing the ledger, the SDK and Playwright again for every file was most of the
    // time (unit suite 1,425 s isolated, 527 s not). UNIT_OWN_MODULES keeps isolation where needed.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...UNIT_OWN_MODULES],
          // Not vitest's 5 s: on a machine that gave the tests a third of a CPU, five CPU-bound tests
          // (a keystore's scrypt, 4,096 file CIDs, a zip bomb) took 5–34 s and failed only by timing out;
          // on one where a scrypt took 7 s, a keystore test took 62 s and 1,000 submits 69 s.
          testTimeout: UNIT_TEST_TIMEOUT_MS
        }
      },
      {
        extends: true,
        test: {
          // The unit files that mock or start module-level state, each in a fresh module graph.
          name: 'unit-isolated',
          environment: 'node',
          include: UNIT_OWN_MODULES,
          isolate: true,
          testTimeout: UNIT_TEST_TIMEOUT_MS
        }
      },
      {
        extends: true,
        test: {
          // The chain's own FT/RFT integration tests, ported to the ledger (`--rules unique`).
          name: 'chain',
          environment: 'node',
          include: ['tests/chain/**/*.test.ts'],
          testTimeout: UNIT_TEST_TIMEOUT_MS
        }
      },
      {
        extends: true,
        test: {
          name: 'contract',
          environment: 'node',
          include: ['tests/contract/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000
        }
      },
      {
        extends: true,
        test: {
          // The built app in Chromium (playwright-core): service worker, offline, many tabs.
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          // Ceilings, not waits: a CI machine that ran 5–8× slower than usual took over 120 s to start a file.
          testTimeout: 300_000,
          hookTimeout: 300_000,
          expect: { poll: BROWSER_POLL },
          // Each file drives its own browser; two at a time keeps two cores busy, not thrashing.
          maxWorkers: 2
        }
      },
      {
        extends: true,
        test: {
          // The creator's app in Chromium, used as a person would (`npm run test:ui`).
          name: 'ui',
          environment: 'node',
          include: ['tests/ui/**/*.test.ts'],
          globalSetup: ['tests/ui/global-setup.ts'],
          testTimeout: 400_000,
          hookTimeout: 400_000,
          expect: { poll: BROWSER_POLL },
          // Two files at a time, as e2e: much of a journey waits on IndexedDB and the worker (the
          // whole suite passed so on two cores while other work kept their load average at 15).
          maxWorkers: 2
        }
      },
      {
        extends: true,
        test: {
          // The published package (`npm run test:package`): packed once, installed into temporary projects.
          name: 'package',
          environment: 'node',
          include: ['tests/package/**/*.test.ts'],
          globalSetup: ['tests/package/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // Each file starts hosts in child processes: one file at a time on shared cores.
          fileParallelism: false
        }
      }
    ]
  }
});
