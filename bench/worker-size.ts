// The sandbox worker's size against its budget (what an app adds to its origin with
// `opalite init`, and what each fresh browser context downloads), beside the Opalite app's own service worker when a build of it is there.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, buildSandboxWorker, kib, sizesOf } from '../scripts/build-sandbox-worker.mjs';

/** The budget: at most 350 KiB gzipped. */
const BUDGET_GZIP = 350 * 1024;

export async function workerSizeLines(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'opalite-worker-size-'));
  try {
    const built = await buildSandboxWorker({ outFile: join(dir, 'sandbox-worker.js'), quiet: true });
    const verdict = built.gzip <= BUDGET_GZIP ? 'PASS' : 'MISS';
    const lines = [`TARGET W1 ${verdict}: sandbox worker (dist/pkg/sandbox-worker.js) ${kib(built.gzip)} gzipped, ${kib(built.raw)} raw (target ≤ ${kib(BUDGET_GZIP)} gzipped)`];
    const appWorker = join(ROOT, 'build', 'service-worker.js');
    if (existsSync(appWorker)) {
      const app = sizesOf(readFileSync(appWorker));
      lines.push(`app service worker (build/service-worker.js): ${kib(app.raw)} raw, ${kib(app.gzip)} gzipped`);
    }
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
