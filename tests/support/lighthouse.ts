// One Lighthouse run (mobile defaults) of a page in a fresh Chromium profile: the first-visit test
// judges what it can judge exactly (accessibility, best practices, bytes), the benchmark the score.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS } from './chromium';

/** Lighthouse warns that a host at or below this benchmark index is too slow for its CPU model. */
export const SLOW_HOST_BENCHMARK = 1000;

export interface LighthouseRun {
  /** Category scores (0 to 1): performance, accessibility, best-practices, seo. */
  scores: Record<string, number | null>;
  /** Bytes the page transferred (Lighthouse's total-byte-weight). */
  totalBytes: number;
  /** Every request Lighthouse saw, with the bytes it transferred (its network-requests audit). */
  requests: { url: string; transferSize: number }[];
  /** Lighthouse's own benchmark of the host (its 4x CPU slowdown is calibrated for index > 1000). */
  hostBenchmark: number;
  /** The metrics behind the score, as Lighthouse words them. */
  summary: string;
  /** Audits below full marks in the categories judged exactly, each with a bounded piece of its findings. */
  failing: string[];
}

const EXACT_CATEGORIES = ['accessibility', 'best-practices'];

/** What a run found short of full marks where a test asks for 1: enough to tell a flake from a fault. */
function failingAudits(lhr: import('lighthouse').Result): string[] {
  return EXACT_CATEGORIES.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => {
        const items = (audit.details as { items?: unknown[] } | undefined)?.items ?? [];
        return `${audit.id}: ${audit.title} ${JSON.stringify(items.slice(0, 3)).slice(0, 400)}`;
      })
  );
}

/**
 * Chromium's helper processes may still be writing into its profile as the main one exits: try for
 * a while, then leave the temporary folder (a cleanup is not what is measured).
 */
function removeProfile(profile: string): void {
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  } catch (error) {
    console.warn(`[lighthouse] left ${profile} behind: ${(error as Error).message}`);
  }
}

async function startChromium(executable: string): Promise<{ port: number; chrome: ChildProcess; profile: string }> {
  const profile = mkdtempSync(join(tmpdir(), 'opalite-lighthouse-'));
  const chrome = spawn(executable, [...CHROMIUM_ARGS, '--headless=new', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await new Promise<number>((done, fail) => {
    let said = '';
    const timer = setTimeout(() => fail(new Error(`Chromium did not open its debugging port:\n${said}`)), 30_000);
    chrome.stderr!.on('data', (data: Buffer) => {
      said += data.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(said);
      if (match) {
        clearTimeout(timer);
        done(Number(match[1]));
      }
    });
    chrome.once('exit', (code) => fail(new Error(`Chromium exited (${code}):\n${said}`)));
  });
  return { port, chrome, profile };
}

/** Lighthouse (mobile, simulated throttling) on `url` in a fresh profile of `executable`. */
export async function runLighthouse(url: string, executable: string): Promise<LighthouseRun> {
  const { port, chrome, profile } = await startChromium(executable);
  try {
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error' });
    const lhr = result!.lhr;
    const audit = (id: string) => lhr.audits[id]?.displayValue ?? '?';
    return {
      scores: Object.fromEntries(Object.entries(lhr.categories).map(([id, category]) => [id, category.score])),
      totalBytes: Number(lhr.audits['total-byte-weight']?.numericValue ?? Number.NaN),
      requests: ((lhr.audits['network-requests']?.details as { items?: { url: string; transferSize?: number }[] } | undefined)?.items ?? []).map(
        ({ url, transferSize }) => ({ url, transferSize: transferSize ?? 0 })
      ),
      hostBenchmark: lhr.environment.benchmarkIndex,
      summary: `FCP ${audit('first-contentful-paint')}, LCP ${audit('largest-contentful-paint')}, TBT ${audit('total-blocking-time')}, SI ${audit('speed-index')}`,
      failing: failingAudits(lhr)
    };
  } finally {
    chrome.kill();
    await new Promise((done) => (chrome.exitCode !== null ? done(null) : chrome.once('exit', done)));
    removeProfile(profile);
  }
}
