// Hostile input against the Node host (in a child process of its own, so a request that freezes
// it cannot freeze the bench and its memory can be read from /proc):
//
//   H1  how long a 1 MB address takes to be refused                    target < 50 ms
//   H2  how long a GET sent meanwhile waits for its answer              target < 50 ms
//   H3  resident memory growth while a 64 MiB chunked body is sent      target < 64 MiB
//
//   npx tsx bench/hostile.ts          (or import { runHostileBench } and print its lines)
//
// Nothing outside 127.0.0.1 is contacted.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chunks, drained, statusField, stopChild } from '../tests/contract/hostile/process-io';

const CHILD_ENV = 'OPALITE_HOSTILE_BENCH_CHILD';
const MiB = 1024 * 1024;
const REPEATS = 5;
/** A request not answered in this long is reported as a miss (the host is stuck), not waited for. */
const GIVE_UP_MS = 60_000;

// ---- the child: the Node host, announcing its URL ----------------------------------------------

if (process.env[CHILD_ENV] === '1') {
  const { startHost } = await import('../server/host');
  const host = await startHost({ port: 0, log: () => {} });
  process.stdout.write(`OPALITE_READY ${host.url}\n`);
  process.once('SIGTERM', () => void host.stop().finally(() => process.exit(0)));
}

// ---- the bench ---------------------------------------------------------------------------------

interface Child {
  url: URL;
  pid: number;
  stop(): Promise<void>;
}

async function startChild(): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { env: { ...process.env, [CHILD_ENV]: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /OPALITE_READY (\S+)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 25);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`the host exited before it was ready: ${output}`));
    });
  });
  return {
    url: new URL(url),
    pid: child.pid!,
    stop: () => stopChild(child, exited)
  };
}

interface Timed {
  status: number;
  ms: number;
}

/** One request; `onSent` runs once the whole body is handed to the socket. Never rejects: a failure is status 0. */
function timedRequest(url: URL, method: string, path: string, body: string | AsyncIterable<Buffer> | undefined, headers: Record<string, string>, onSent?: () => void): Promise<Timed> {
  return new Promise((resolve) => {
    const started = performance.now();
    let done = false;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ status, ms: performance.now() - started });
    };
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers, agent: new Agent() }, (res) => {
      res.resume();
      res.on('end', () => finish(res.statusCode ?? 0));
      res.on('error', () => finish(res.statusCode ?? 0));
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish(0);
    }, GIVE_UP_MS);
    req.on('error', () => finish(0));
    req.on('finish', () => onSent?.());
    if (body === undefined || typeof body === 'string') req.end(body);
    else {
      void (async () => {
        try {
          for await (const chunk of body) {
            if (done || req.destroyed) return;
            if (!req.write(chunk)) await drained(req);
          }
          if (!req.destroyed) req.end();
        } catch {
          // the host closed the connection after answering
        }
      })();
    }
  });
}




const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');

/** GETs one after another, 10 ms apart, until `until` settles: the slowest answer (Infinity if one never came). */
async function readsMeanwhile(url: URL, path: string, until: Promise<unknown>): Promise<{ slowest: number; count: number }> {
  let over = false;
  void until.finally(() => (over = true));
  let slowest = 0;
  let count = 0;
  do {
    const read = await timedRequest(url, 'GET', path, undefined, {});
    count++;
    slowest = Math.max(slowest, read.status === 200 ? read.ms : Infinity);
    if (read.status !== 200) break;
    await new Promise((r) => setTimeout(r, 10));
  } while (!over);
  return { slowest, count };
}

/** The three measurements, as lines to print. */
export async function runHostileBench(): Promise<string[]> {
  const lines = ['', '---- hostile input (Node host in a child process) ----'];
  const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : `> ${GIVE_UP_MS} ms (no answer)`);
  const json = { 'content-type': 'application/json', accept: 'application/json' };

  // H1 and H2: a 1 MB address; from the moment its body is sent, GETs until it is answered.
  let child = await startChild();
  try {
    const base = child.url.pathname;
    const read = `${base}/common/chain-properties`;
    // Warm up the routes the bench uses.
    await timedRequest(child.url, 'GET', read, undefined, {});
    await timedRequest(child.url, 'POST', `${base}/collections?use=Build`, JSON.stringify({ address: 'nobody', name: 'x', description: 'y', tokenPrefix: 'z' }), json);

    const body = JSON.stringify({ address: 'Zq'.repeat(500_000), name: 'x', description: 'y', tokenPrefix: 'z' });
    const refusals: Timed[] = [];
    let slowestRead = 0;
    let reads = 0;
    for (let i = 0; i < REPEATS; i++) {
      let meanwhile: Promise<{ slowest: number; count: number }> | undefined;
      const refusal = timedRequest(child.url, 'POST', `${base}/collections?use=Build`, body, { ...json, 'content-length': String(Buffer.byteLength(body)) }, () => {
        meanwhile = readsMeanwhile(child.url, read, refusal);
      });
      refusals.push(await refusal);
      const got = await (meanwhile ?? readsMeanwhile(child.url, read, Promise.resolve()));
      slowestRead = Math.max(slowestRead, got.slowest);
      reads += got.count;
      if ((await refusal).status === 0) break; // stuck: one miss says it
    }
    const refusedMs = median(refusals.map((r) => (r.status === 0 ? Infinity : r.ms)));
    const statuses = [...new Set(refusals.map((r) => r.status || 'none'))].join('/');
    lines.push(`HOSTILE 1 ${verdict(refusedMs < 50 && refusals.every((r) => r.status >= 400 && r.status < 500))}: a 1 MB address refused in ${ms(refusedMs)} (median of ${refusals.length}, answer ${statuses}) (target < 50 ms, a 4xx)`);
    lines.push(`HOSTILE 2 ${verdict(slowestRead < 50)}: GETs sent meanwhile answered in at most ${ms(slowestRead)} (slowest of ${reads}) (target < 50 ms)`);
  } finally {
    await child.stop();
  }

  // H3: resident memory while a 64 MiB chunked JSON body is sent, on a fresh host.
  child = await startChild();
  try {
    let peakReset = true;
    try {
      writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
    } catch {
      peakReset = false;
    }
    const before = statusField(child.pid, 'VmRSS');
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, statusField(child.pid, 'VmRSS'))), 10);
    const big = await timedRequest(child.url, 'POST', `${child.url.pathname}/collections`, chunks(64 * MiB), { ...json, authorization: 'Seed //Alice' });
    clearInterval(sampler);
    peak = Math.max(peak, statusField(child.pid, 'VmRSS'), peakReset ? statusField(child.pid, 'VmHWM') : 0);
    const growth = (peak - before) / MiB;
    const refused = big.status === 413;
    lines.push(
      `HOSTILE 3 ${verdict(growth < 64 && refused)}: resident memory grew ${growth.toFixed(1)} MiB while a 64 MiB chunked body was sent (answer ${big.status || 'none'} in ${big.ms.toFixed(0)} ms; resident ${(before / MiB).toFixed(0)} → peak ${(peak / MiB).toFixed(0)} MiB) (target < 64 MiB, a 413)`
    );
  } finally {
    await child.stop();
  }
  return lines;
}

if (process.env[CHILD_ENV] !== '1' && process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const line of await runHostileBench()) console.log(line);
}
