// Registering the service worker (workbox-window) and talking to it. A new version installs in
// the background and waits; the page offers to reload, and only when the person accepts does it
// ask the waiting worker to take over (`messageSkipWaiting`) and reload once it controls.
import { Workbox, messageSW } from 'workbox-window';
import { readHello, type HelloMessage } from './protocol';

export interface RegisterOptions {
  /** Default `/service-worker.js`. */
  url?: string;
  /**
   * `module` in dev (Vite serves the worker as a module), `classic` for the built bundle: Chromium
   * restarts an idle-stopped classic worker from the code it stored at install, a module worker
   * by parsing it again (decision 0016), and a person's worker restarts many times a day.
   */
  type?: 'classic' | 'module';
  /** A new version waits; `accept()` switches to it and reloads the page. */
  onUpdateReady?(accept: () => void): void;
  /** Another worker took control of this page (first install, or an update elsewhere). */
  onControllerChange?(): void;
}

export function serviceWorkerSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

/** Register the worker; null where service workers are unavailable (the in-page host answers then). */
export async function registerServiceWorker(options: RegisterOptions = {}): Promise<Workbox | null> {
  if (!serviceWorkerSupported()) return null;
  const wb = new Workbox(options.url ?? '/service-worker.js', { scope: '/', type: options.type ?? 'classic' });
  wb.addEventListener('waiting', () => {
    options.onUpdateReady?.(() => {
      // Reload once the new worker controls the page, so page and worker are one build again.
      wb.addEventListener('controlling', () => window.location.reload());
      wb.messageSkipWaiting();
    });
  });
  navigator.serviceWorker.addEventListener('controllerchange', () => options.onControllerChange?.());
  await wb.register({ immediate: true });
  return wb;
}

/** Ask the controlling worker who it is; null when no worker controls the page or it does not answer. */
export async function greetWorker(page: HelloMessage, timeoutMs = 3000): Promise<HelloMessage | null> {
  const controller = serviceWorkerSupported() ? navigator.serviceWorker.controller : null;
  if (!controller) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
  try {
    return readHello(await Promise.race([messageSW(controller, page), timeout]));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * On a first visit, whether the worker being installed takes control of this page (it claims its
 * clients once active) within `timeoutMs`. False at once when a worker is already active yet does
 * not control the page (a hard reload: the page answers for itself), or when `failed` settles.
 */
export async function workerTakesOver(timeoutMs: number, failed: Promise<unknown>): Promise<boolean> {
  if (!serviceWorkerSupported()) return false;
  if (navigator.serviceWorker.controller) return true;
  if ((await navigator.serviceWorker.getRegistration('/'))?.active) return false;
  return new Promise<boolean>((resolve) => {
    const settle = (value: boolean) => {
      clearTimeout(timer);
      navigator.serviceWorker.removeEventListener('controllerchange', onChange);
      resolve(value);
    };
    const onChange = () => settle(true);
    const timer = setTimeout(() => settle(false), timeoutMs);
    navigator.serviceWorker.addEventListener('controllerchange', onChange);
    void failed.then(() => settle(!!navigator.serviceWorker.controller));
  });
}
