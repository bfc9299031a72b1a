// How a fork asks its source: GET only, a few requests at once, a timeout each, retries with
// backoff on 429 and 5xx (Retry-After honoured, bounded), one request per URL however many wait
// for it, and answers bounded in size. Every failure is a ForkSourceError naming the source.
import { readCapped } from '../codec/read-capped';
import { ForkSourceError } from '../ledger/fork/source';

export interface PoliteFetchOptions {
  /** Requests to the source at once (default 4). */
  concurrency?: number;
  /** Per request, in ms (default 10 s). */
  timeoutMs?: number;
  /** Tries after the first on 429/5xx or a lost connection (default 3). */
  retries?: number;
  /** First backoff in ms, doubled each retry (default 200). */
  backoffMs?: number;
  /** Largest answer body taken (default 8 MiB). */
  maxBytes?: number;
  fetch?: typeof fetch;
  /** Waits between retries (tests pass an immediate one). */
  sleep?: (ms: number) => Promise<void>;
}

/** A JSON answer: the status and the parsed body (null for an empty body). */
export interface SourceAnswer {
  status: number;
  body: unknown;
}

const RETRY_CAP_MS = 5_000;
const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class PoliteFetch {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inflight = new Map<string, Promise<SourceAnswer>>();
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBytes: number;
  private readonly fetchFn: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Requests sent (every try counted), for /dev/status and the benchmark. */
  requests = 0;

  constructor(
    /** The source, as named in errors. */
    readonly source: string,
    options: PoliteFetchOptions = {}
  ) {
    this.concurrency = options.concurrency ?? 4;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = options.retries ?? 3;
    this.backoffMs = options.backoffMs ?? 200;
    this.maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = options.sleep ?? sleepFor;
  }

  /** GET `url`; concurrent callers of the same url share one request. */
  get(url: string): Promise<SourceAnswer> {
    let running = this.inflight.get(url);
    if (!running) {
      running = this.withSlot(() => this.tryGet(url));
      this.inflight.set(url, running);
      const forget = () => this.inflight.delete(url);
      running.then(forget, forget);
    }
    return running;
  }

  private async withSlot<T>(work: () => Promise<T>): Promise<T> {
    while (this.active >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private async tryGet(url: string): Promise<SourceAnswer> {
    for (let attempt = 0; ; attempt++) {
      let answer: SourceAnswer | { retryAfterMs: number | null; why: string };
      try {
        answer = await this.once(url);
      } catch (e) {
        if (e instanceof ForkSourceError && e.kind !== 'unreachable') throw e;
        answer = { retryAfterMs: null, why: e instanceof Error ? e.message : String(e) };
      }
      if ('status' in answer) return answer;
      if (attempt >= this.retries) {
        throw new ForkSourceError('unreachable', `The fork's source ${this.source} did not answer ${shortPath(url, this.source)} after ${attempt + 1} tries: ${answer.why}`, this.source);
      }
      const backoff = this.backoffMs * 2 ** attempt;
      await this.sleep(Math.min(RETRY_CAP_MS, Math.max(backoff, answer.retryAfterMs ?? 0)));
    }
  }

  /** One try: an answer, or why to try again. */
  private async once(url: string): Promise<SourceAnswer | { retryAfterMs: number | null; why: string }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    this.requests++;
    try {
      let response: Response;
      try {
        response = await this.fetchFn(url, { method: 'GET', headers: { accept: 'application/json' }, signal: controller.signal, redirect: 'error' });
      } catch (e) {
        if (controller.signal.aborted) throw this.timeout(url);
        return { retryAfterMs: null, why: e instanceof Error ? e.message : String(e) };
      }
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel().catch(() => {});
        return { retryAfterMs: retryAfterMs(response.headers.get('retry-after')), why: `HTTP ${response.status}` };
      }
      const text = await this.boundedText(response, url).catch((e: unknown) => {
        if (controller.signal.aborted) throw this.timeout(url);
        throw e;
      });
      let body: unknown = null;
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          throw new ForkSourceError('invalid', `The fork's source ${this.source} answered ${shortPath(url, this.source)} with something that is not JSON`, this.source);
        }
      }
      return { status: response.status, body };
    } finally {
      clearTimeout(timer);
    }
  }

  private timeout(url: string): ForkSourceError {
    return new ForkSourceError('timeout', `The fork's source ${this.source} did not answer ${shortPath(url, this.source)} within ${this.timeoutMs} ms`, this.source);
  }

  private async boundedText(response: Response, url: string): Promise<string> {
    const declared = Number(response.headers.get('content-length'));
    const tooLarge = () => new ForkSourceError('invalid', `The fork's source ${this.source} answered ${shortPath(url, this.source)} with more than ${this.maxBytes} bytes`, this.source);
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw tooLarge();
    }
    if (!response.body) return '';
    const bytes = await readCapped(response.body, this.maxBytes);
    if (!bytes) throw tooLarge();
    return new TextDecoder().decode(bytes);
  }
}

/** Retry-After in ms (seconds or an HTTP date), or null. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  if (/^\d{1,6}$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** The url without the source's base, bounded, for messages. */
function shortPath(url: string, base: string): string {
  const path = url.startsWith(base) ? url.slice(base.length) : url;
  return path.length > 160 ? `${path.slice(0, 160)}…` : path;
}
