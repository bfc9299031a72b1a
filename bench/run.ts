// `npm run bench`: Opalite's benchmarks, each target beside a baseline measured in the same run,
// as a ratio or a bound that does not depend on the machine's core count (README.md, "Benchmarks",
// says what each target means). Every part prints its own lines, its targets as
// `TARGET <id> PASS|MISS: …`; the run ends with all the targets again, and how busy the machine was.
//
//   BENCH_HISTORY=0   skips part 3 (history)
//   BENCH_BROWSER=0   skips the browser parts (4, 5, 6 and 8)
//   BENCH_FORK=0      skips part 7 (forking)
//   BENCH_GALLERY=0   skips part 8 (the gallery at 10,000 tokens, in Chromium)
//
// Only files under bench/ and temporary directories are written; nothing outside 127.0.0.1 is contacted.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Busy CPU seconds of the whole machine so far (Linux /proc/stat), or null elsewhere. */
function machineBusySeconds(): number | null {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = cpu[3] + (cpu[4] ?? 0);
    return (cpu.reduce((a, b) => a + b, 0) - idle) / 100; // USER_HZ = 100
  } catch {
    return null;
  }
}

/** CPU seconds of this process and its children that have ended (the hosts the parts start). */
function ownBusySeconds(): number {
  const self = process.cpuUsage();
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // cutime and cstime (fields 16 and 17), in clock ticks.
  const children = (Number(fields[13]) + Number(fields[14])) / 100;
  return (self.user + self.system) / 1e6 + children;
}

const parts: [string, () => Promise<string[]>][] = [
  ['1. the Node host on SQLite', async () => [...(await (await import('./storage')).runStorageBench()), ...(await (await import('./worker-size')).workerSizeLines())]],
  ['2. hostile input', async () => (await import('./hostile')).runHostileBench()]
];
if (process.env.BENCH_HISTORY !== '0') parts.push(['3. history', async () => (await import('./history')).runHistoryBench()]);
// issue 18: forking (start, requests to the source, reads of copied data); BENCH_FORK=0 skips it.
if (process.env.BENCH_FORK !== '0') parts.push(['7. forking a host', async () => (await import('./fork')).runForkBench()]);
if (process.env.BENCH_BROWSER !== '0') {
  parts.push(['4. the browser (headless Chromium, service worker)', async () => (await import('./browser')).runBrowserBench()]);
  parts.push(['5. the sandbox start in a fresh browser context', async () => (await import('./sandbox-start')).runSandboxStartBench()]);
  parts.push(['6. first visit (Lighthouse, mobile)', async () => (await import('./first-visit')).runFirstVisitBench()]);
  // issue 19: the gallery of a 10,000-token collection; BENCH_GALLERY=0 skips it.
  if (process.env.BENCH_GALLERY !== '0') parts.push(['8. the gallery at 10,000 tokens (headless Chromium)', async () => (await import('./gallery')).runGalleryBench()]);
}

const started = performance.now();
const busy0 = machineBusySeconds();
const targets: string[] = [];
console.log(`Opalite bench — Node ${process.version}, ${cpus().length} CPUs`);
for (const [name, run] of parts) {
  console.log(`\n==== ${name} ====`);
  for (const line of await run()) {
    console.log(line);
    if (/^(TARGET|HOSTILE) /.test(line)) targets.push(line);
  }
}
const wall = (performance.now() - started) / 1000;
const busy1 = machineBusySeconds();
const others = busy0 === null || busy1 === null ? null : Math.max(0, busy1 - busy0 - ownBusySeconds()) / wall;
console.log('\n==== targets ====');
for (const line of targets) console.log(line);
console.log(
  `total ${wall.toFixed(0)} s on ${cpus().length} CPUs` + (others === null ? '' : `; other processes used ${others.toFixed(2)} cores on average (every target is a ratio or a bound, but a busy machine still makes them noisy)`)
);
