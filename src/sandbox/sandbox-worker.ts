// The service worker `npx opalite init` copies into another web app, built into one script by
// scripts/build-sandbox-worker.mjs (valid as a module or a classic worker); `startSandbox()` of
// `opalite/browser` registers it.
import type { ServiceWorkerScope } from '../lib/browser/worker-types';
import { startSandboxWorker } from './start-sandbox-worker';

/** The opalite package version, written in by the build; startSandbox() refuses a worker of another version. */
declare const __OPALITE_VERSION__: string;

startSandboxWorker(self as unknown as ServiceWorkerScope, { appVersion: __OPALITE_VERSION__ });
