// CPU profiles of a service worker in the bench's Chromium (BENCH_BROWSER_PROFILE=1 in
// bench/browser.ts): a browser-level CDP session attaches to the worker's target and drives
// its V8 profiler; the summary groups self time by library and lists the hottest functions.
// Profiles are only readable on an unminified worker, so profiling mode serves an esbuild bundle
// of src/lib/browser/worker.ts (same code, no minifier) as /service-worker.js.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Browser, CDPSession } from 'playwright-core';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface WorkerProfile {
  totalMs: number;
  idleMs: number;
  categories: [string, number][];
  /** Inclusive time of interesting frames (counted once per sample). */
  inclusive: [string, number][];
  top: [string, number][];
}

export interface WorkerProfiler {
  start(): Promise<void>;
  /** The summary; with `saveAs`, the raw profile is also written there (open it in DevTools). */
  stop(saveAs?: string): Promise<WorkerProfile>;
  detach(): Promise<void>;
}

/** Where a frame's code comes from: the module esbuild put that line in (its `// path` markers). */
function categoryOf(f: CallFrame, moduleOf: (line: number) => string): string {
  const n = f.functionName;
  if (n === '(idle)') return '(idle)';
  if (n === '(garbage collector)') return 'GC';
  if (n === '(program)') return '(program/native)';
  if (n === '(root)') return '(root)';
  if (!f.url) return `(native) ${n || '(anonymous)'}`;
  return moduleOf(f.lineNumber);
}

const INTERESTING: [string, RegExp][] = [
  ['handler: Opalite REST handler (whole request)', /^(answer|handle)$/],
  ['zod parse', /^(safeParse|parse|_parse|safeParseAsync|parseAsync)$/],
  ['Ledger.submit', /^submit$/],
  ['produceBlock', /^produceBlock$/],
  ['verifySignature', /^verifySignature$/],
  ['sr25519Verify', /^sr25519Verify$/],
  ['JSON.stringify', /^stringify$/],
  ['JSON.parse', /^parse$/]
];

/**
 * Attach to the service worker whose script URL ends with `suffix`. The source text is fetched
 * once so frames can be attributed to the module esbuild put them in (`// path` markers).
 */
export async function attachWorkerProfiler(browser: Browser, suffix: string, sourceText: string): Promise<WorkerProfiler> {
  const session: CDPSession = await browser.newBrowserCDPSession();
  const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
  const target = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith(suffix));
  if (!target) throw new Error(`no service worker target ending in ${suffix}: ${targetInfos.map((t) => `${t.type} ${t.url}`).join(', ')}`);
  const { sessionId } = (await session.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
  let seq = 0;
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  session.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return;
    const p = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) p?.reject(new Error(message.error.message));
    else p?.resolve(message.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<any>((resolve, reject) => {
      const id = ++seq;
      pending.set(id, { resolve, reject });
      void session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });

  // Module of each line of the unminified bundle, from esbuild's `// node_modules/x/y.js` markers.
  const markers: [number, string][] = [];
  sourceText.split('\n').forEach((text, line) => {
    const m = /^\s*\/\/ (node_modules\/(?:@[^/]+\/)?[^/]+|src\/[^\s]+)/.exec(text);
    if (m) markers.push([line, m[1].startsWith('src/') ? m[1] : m[1].replace(/^node_modules\//, '')]);
  });
  const moduleOf = (line: number) => {
    let lo = 0;
    let hi = markers.length - 1;
    let best = '(bundle)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (markers[mid][0] <= line) {
        best = markers[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  };

  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  return {
    async start() {
      await send('Profiler.start');
    },
    async stop(saveAs?: string) {
      const { profile } = (await send('Profiler.stop')) as { profile: CpuProfile };
      if (saveAs) writeFileSync(saveAs, JSON.stringify(profile));
      return summarise(profile, moduleOf);
    },
    async detach() {
      await send('Profiler.disable').catch(() => {});
      await session.send('Target.detachFromTarget', { sessionId }).catch(() => {});
      await session.detach().catch(() => {});
    }
  };
}

function summarise(profile: CpuProfile, moduleOf: (line: number) => string): WorkerProfile {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const categories = new Map<string, number>();
  const top = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idleMs = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id)!;
    const f = node.callFrame;
    const category = categoryOf(f, moduleOf);
    if (category === '(idle)') {
      idleMs += ms;
      continue;
    }
    categories.set(category, (categories.get(category) ?? 0) + ms);
    const name = `${f.functionName || '(anonymous)'} @ ${f.url ? `${moduleOf(f.lineNumber)}:${f.lineNumber + 1}` : 'native'}`;
    top.set(name, (top.get(name) ?? 0) + ms);
    // Inclusive: walk up once per sample group, counting each label once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame;
      for (const [label, re] of INTERESTING) if (!seen.has(label) && re.test(cf.functionName)) seen.add(label);
      const module = cf.url ? moduleOf(cf.lineNumber) : '';
      if (module.startsWith('src/')) seen.add(`module ${module}`);
      if (module && !module.startsWith('src/')) seen.add(`lib ${module}`);
    }
    for (const label of seen) inclusive.set(label, (inclusive.get(label) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { totalMs, idleMs, categories: sorted(categories), inclusive: sorted(inclusive), top: sorted(top) };
}

export function profileLines(label: string, p: WorkerProfile): string[] {
  const busy = p.totalMs - p.idleMs;
  const out = [`[profile: Opalite service worker] ${label}: busy ${busy.toFixed(0)} ms of ${p.totalMs.toFixed(0)} ms (${((100 * busy) / p.totalMs).toFixed(0)}%)`];
  out.push('  self time by module:');
  for (const [c, ms] of p.categories.slice(0, 18)) out.push(`    ${c.padEnd(56)} ${ms.toFixed(0).padStart(6)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)}%`);
  out.push('  inclusive (module or library on the stack):');
  for (const [c, ms] of p.inclusive.slice(0, 30)) out.push(`    ${c.padEnd(56)} ${ms.toFixed(0).padStart(6)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)}%`);
  out.push('  top self-time functions:');
  for (const [f, ms] of p.top.slice(0, 20)) out.push(`    ${ms.toFixed(0).padStart(6)} ms  ${f}`);
  return out;
}

// ---- CPU time of Chromium's threads (Linux /proc), by process role and thread name ----------

/** CPU seconds per `role/thread` of every process descending from this one; empty off Linux. */
export function chromiumCpu(): Map<string, number> {
  const out = new Map<string, number>();
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
  } catch {
    return out;
  }
  const parent = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const descends = (pid: number) => {
    for (let cur = pid, hops = 0; cur > 1 && hops < 12; hops++) {
      cur = parent.get(cur) ?? 0;
      if (cur === process.pid) return true;
    }
    return false;
  };
  for (const pid of pids.filter(descends)) {
    try {
      const threads = readdirSync(`/proc/${pid}/task`).map((tid) => {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // utime and stime are fields 14 and 15 of stat (11 and 12 after the command), in USER_HZ (100).
        return { name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(), seconds: (Number(fields[11]) + Number(fields[12])) / 100 };
      });
      const names = new Set(threads.map((t) => t.name));
      // Zygote children keep the zygote's command line, so the role is told by the threads.
      const role = names.has('DevToolsPipeHan')
        ? 'browser'
        : names.has('VizCompositorTh')
          ? 'gpu'
          : names.has('Compositor')
            ? 'renderer'
            : names.has('esbuild')
              ? 'esbuild'
              : 'utility';
      for (const t of threads) {
        const key = `${role}/${t.name.replace(/\d+$/, '#')}`;
        out.set(key, (out.get(key) ?? 0) + t.seconds);
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** `after - before`, ms per `per` operations, largest first, only entries of at least `min` ms. */
export function cpuPer(before: Map<string, number>, after: Map<string, number>, per: number, min = 0.05): [string, number][] {
  const out: [string, number][] = [];
  for (const [key, seconds] of after) {
    const ms = ((seconds - (before.get(key) ?? 0)) * 1000) / per;
    if (ms >= min) out.push([key, ms]);
  }
  return out.sort((a, b) => b[1] - a[1]);
}
