// Issue 18: forking. Each number beside a baseline measured in this same run:
//   F1  start of a fork: startHost({ fork }) of an Opalite source on 127.0.0.1 (finding the head,
//       the collection counts, genesis), median of 5; beside the start of a plain host.
//                                                    target (issue 18): < 1 s
//   F2  requests to the source for the first read of a token (GET /tokens) on a fresh fork, and
//       for a second read of it.                     target: at most 3, then none
//   F3  a read of copied data: GET /tokens of 100 copied tokens, 5 rounds, sequential, median
//       latency; beside the same reads on the source (a plain ledger).
//                                                    target: as fast as a plain ledger's
import { startHost, type RunningHost } from '../server/host';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function post(host: RunningHost, path: string, body: unknown) {
  const response = await fetch(`${host.url}${path}?use=Result`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (json.isError || response.status >= 400) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json.parsed;
}

async function timedGets(host: RunningHost, paths: string[]): Promise<number> {
  const times: number[] = [];
  for (const path of paths) {
    const started = performance.now();
    const response = await fetch(`${host.url}${path}`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return median(times);
}

export async function runForkBench(): Promise<string[]> {
  const log: string[] = [];
  const quiet = { port: 0, log: () => {}, verifyThreads: 0 } as const;
  const source = await startHost({ ...quiet, rules: 'unique', log: (line) => log.push(line) });
  const lines: string[] = [];
  try {
    const { collectionId } = await post(source, '/collections', { address: ALICE, name: 'Bench', description: 'fork bench', tokenPrefix: 'B' });
    for (let i = 0; i < 4; i++) await post(source, '/tokens/create-multiple', { address: ALICE, collectionId, tokens: Array.from({ length: 25 }, () => ({ properties: [] })) });

    const starts: number[] = [];
    const plainStarts: number[] = [];
    for (let i = 0; i < 5; i++) {
      let t = performance.now();
      const fork = await startHost({ ...quiet, fork: source.url });
      starts.push(performance.now() - t);
      await fork.stop();
      t = performance.now();
      const plain = await startHost(quiet);
      plainStarts.push(performance.now() - t);
      await plain.stop();
    }
    const start = median(starts);
    lines.push(`F1 fork start: median ${start.toFixed(0)} ms (plain host ${median(plainStarts).toFixed(0)} ms)`);
    lines.push(`TARGET F1 ${start < 1000 ? 'PASS' : 'MISS'}: a fork starts in ${start.toFixed(0)} ms (target < 1000 ms)`);

    const fork = await startHost({ ...quiet, fork: source.url });
    try {
      const before = log.length;
      await fetch(`${fork.url}/tokens?collectionId=${collectionId}&tokenId=1`).then((r) => r.arrayBuffer());
      const first = log.length - before;
      await fetch(`${fork.url}/tokens?collectionId=${collectionId}&tokenId=1`).then((r) => r.arrayBuffer());
      const second = log.length - before - first;
      lines.push(`TARGET F2 ${first <= 3 && second === 0 ? 'PASS' : 'MISS'}: the first read of a token asked the source ${first} times, the second ${second} (target at most 3, then 0)`);

      const paths = Array.from({ length: 100 }, (_, i) => `/tokens?collectionId=${collectionId}&tokenId=${i + 1}`);
      await timedGets(fork, paths); // copy them all in
      const forkTimes: number[] = [];
      const plainTimes: number[] = [];
      for (let round = 0; round < 5; round++) {
        forkTimes.push(await timedGets(fork, paths));
        plainTimes.push(await timedGets(source, paths));
      }
      const ratio = median(forkTimes) / median(plainTimes);
      lines.push(`F3 read of copied data: median ${median(forkTimes).toFixed(2)} ms per GET /tokens on the fork, ${median(plainTimes).toFixed(2)} ms on a plain ledger`);
      // "As fast as a plain ledger's", within the noise of sequential requests on shared cores.
      lines.push(`TARGET F3 ${ratio <= 1.25 ? 'PASS' : 'MISS'}: reads of copied data take ${ratio.toFixed(2)}× a plain ledger's (target ≤ 1.25×)`);
    } finally {
      await fork.stop();
    }
  } finally {
    await source.stop();
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await runForkBench()) console.log(line);
