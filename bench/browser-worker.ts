// Opalite's service worker bundled by esbuild without minifying (BENCH_BROWSER_WORKER=esbuild or
// BENCH_BROWSER_PROFILE=1 in bench/browser.ts), so CPU profiles name functions and modules. The
// same code as src/service-worker.ts; only the build manifest is empty (nothing but / precached).
import { startServiceWorker } from '../src/lib/browser/worker';
import type { ServiceWorkerScope } from '../src/lib/browser/worker-types';

startServiceWorker(self as unknown as ServiceWorkerScope, { version: 'bench-unminified', base: '', build: [], files: [], prerendered: [] });
