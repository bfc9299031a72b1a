import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';
import { appWorkerNoStartupThrow } from './scripts/app-worker-no-startup-throw.mjs';

/**
 * Browser tests poll the screen for what a person would wait to see. Vitest's default of 1 s is a
 * blink on two shared cores (a Network page's first reachability check took longer in a CI run).
 */
const BROWSER_POLL = { timeout: 10_000, interval: 50 };

export default defineConfig({
  plugins: [sveltekit(), appWorkerNoStartupThrow()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts']
        }
      },
      {
        extends: true,
        test: {
          // The chain's own FT/RFT integration tests, ported to the ledger (`--rules unique`).
          name: 'chain',
          environment: 'node',
          include: ['tests/chain/**/*.test.ts']
        }
      },
      {
        extends: true,
        test: {
          name: 'contract',
          environment: 'node',
          include: ['tests/contract/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000
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
          testTimeout: 120_000,
          hookTimeout: 120_000,
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
          testTimeout: 180_000,
          hookTimeout: 180_000,
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
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file starts hosts in child processes: one file at a time on shared cores.
          fileParallelism: false
        }
      }
    ]
  }
});
