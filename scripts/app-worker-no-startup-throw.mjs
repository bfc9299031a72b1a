// The app's service worker starts without throwing, as the sandbox's does (scripts/no-startup-throw.mjs).
// SvelteKit bundles src/service-worker.ts in a Vite build of its own that takes none of our Vite
// plugins (only `define` and `kit.alias` reach it, and neither can rewrite one line of one module),
// so this plugin rewrites protobufjs's Buffer probe in the finished worker instead: after SvelteKit
// writes it (in `writeBundle` of the server build, where it builds the client and the worker) and
// before the adapter copies it into the site (`closeBundle`). A worker without exactly one minified
// probe fails the build: a protobufjs or minifier that changed it is looked at again, not shipped.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

// The minified `try { var Buffer = util.global.Buffer; return Buffer.prototype.utf8Write ? Buffer : null }`.
const MINIFIED_PROBE = /var ([\w$]+)=([\w$]+)\.global\.Buffer;(return \1\.prototype\.utf8Write\?\1:null)/g;

/** `code` with the Buffer probe reading a missing Buffer as one without `utf8Write` (the same `null`, no TypeError). */
export function withoutBufferProbeThrow(code) {
  const found = [...code.matchAll(MINIFIED_PROBE)].length;
  if (found !== 1) {
    throw new Error(`The service worker holds ${found} protobufjs Buffer probes ("var B=u.global.Buffer;return B.prototype.utf8Write?B:null"), not 1: see scripts/app-worker-no-startup-throw.mjs`);
  }
  return code.replace(MINIFIED_PROBE, 'var $1=$2.global.Buffer||{prototype:{}};$3');
}

/** A Vite plugin rewriting the service worker SvelteKit built, before the adapter copies it. */
export function appWorkerNoStartupThrow() {
  /** Set in the server build only: SvelteKit writes the worker to output/client beside its output/server. */
  let serviceWorkerFile = null;
  return {
    name: 'opalite-app-worker-no-startup-throw',
    apply: 'build',
    configResolved(config) {
      serviceWorkerFile = config.build.ssr ? resolve(config.build.outDir, '..', 'client', 'service-worker.js') : null;
    },
    writeBundle: {
      // After SvelteKit's own writeBundle (sequential too), which builds the worker.
      order: 'post',
      sequential: true,
      handler() {
        if (serviceWorkerFile) writeFileSync(serviceWorkerFile, withoutBufferProbeThrow(readFileSync(serviceWorkerFile, 'utf8')));
      }
    }
  };
}
