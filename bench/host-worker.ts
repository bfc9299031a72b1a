// Worker-thread entry: the host side of the benchmark, driven by messages from bench/run.ts.
import { parentPort } from 'node:worker_threads';
import { startHostSide, type Control } from './host-side';

const port = parentPort!;
const control: Control = await startHostSide();
port.on('message', async (m: { id: number; op: string; args: unknown[] }) => {
  try {
    const fn = (control as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[m.op];
    const result = await fn(...m.args);
    port.postMessage({ id: m.id, result });
    if (m.op === 'stop') port.close();
  } catch (e) {
    port.postMessage({ id: m.id, error: String((e as Error)?.stack ?? e) });
  }
});
port.postMessage({ ready: control.url });
