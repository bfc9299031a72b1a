// Host: the service worker. One static bundle (no import() at run time); everything it does is
// in $lib/browser/worker.ts.
import { base, build, files, prerendered, version } from '$service-worker';
import { startServiceWorker } from '$lib/browser/worker';
import type { ServiceWorkerScope } from '$lib/browser/worker-types';

startServiceWorker(self as unknown as ServiceWorkerScope, { version, base, build, files, prerendered });
