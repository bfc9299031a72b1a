// Test pages on the app's own origin: a script bundled with esbuild at set-up, and the built app
// copied into a temporary root beside those pages, served by server/preview.ts (so the preview
// serves the app exactly as it does in the other e2e tests, and the test files only in the copy).
//
// The app's worker answers every navigation of its origin with the precached shell, so a test
// page must be its *first* navigation in a fresh browser context (served by the preview server);
// the page then registers the app's worker itself, whose `clients.claim()` on activation makes
// it the page's controller without a reload (a reload would load the shell instead).
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import type { Page } from 'playwright-core';
import { startPreview, type RunningPreview } from '../../server/preview';
import { E2E_BUILD_DIR, PROJECT_ROOT } from './paths';
import { tempDir } from './support';

/** Where bundles of test pages go (never into the build that other tests serve). */
export const PAGES_CACHE = join(PROJECT_ROOT, 'node_modules', '.cache', 'opalite-e2e-pages');

/** Bundle a browser entry (TypeScript) into one classic script; returns its path. */
export async function bundleBrowserEntry(entry: string, outName: string, options: BuildOptions = {}): Promise<string> {
  const outfile = join(PAGES_CACHE, outName);
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    sourcemap: 'inline',
    logLevel: 'error',
    absWorkingDir: PROJECT_ROOT,
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    ...options
  });
  return outfile;
}

export interface ServedPages {
  preview: RunningPreview;
  /** Every request the preview server saw: `METHOD /path STATUS`. */
  served: string[];
  root: string;
  close(): Promise<void>;
}

/**
 * The built app (E2E_BUILD_DIR) copied into a temporary root, plus `files` (path under the
 * root → contents or a file to copy), served by the preview server on a free port.
 */
export async function servePages(files: Record<string, string | { copyFrom: string }>, buildDir: string = E2E_BUILD_DIR): Promise<ServedPages> {
  const root = tempDir('opalite-pages-');
  cpSync(buildDir, root, { recursive: true });
  for (const [path, contents] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    if (typeof contents === 'string') writeFileSync(target, contents);
    else cpSync(contents.copyFrom, target);
  }
  const served: string[] = [];
  const preview = await startPreview({ root, port: 0, log: (line) => served.push(line) });
  return {
    preview,
    served,
    root,
    async close() {
      await preview.close();
      rmSync(root, { recursive: true, force: true });
    }
  };
}

/** A page that only loads `scripts` (absolute paths on the origin). */
export function testPageHtml(title: string, scripts: string[]): string {
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title></head>\n<body><h1>${title}</h1>\n${scripts
    .map((src) => `<script src="${src}"></script>`)
    .join('\n')}\n</body></html>\n`;
}

/**
 * Register the app's worker from a test page and wait until it controls the page (its
 * `clients.claim()` on activation); returns the controller's script URL.
 */
export async function controlByAppWorker(page: Page): Promise<string> {
  return page.evaluate(async () => {
    if (!navigator.serviceWorker.controller) {
      const claimed = new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
      await navigator.serviceWorker.register('/service-worker.js', { scope: '/', type: 'classic' });
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await claimed;
    }
    return navigator.serviceWorker.controller!.scriptURL;
  });
}
