// Signature checks off the event loop: a pool of worker threads (one per core by default), each
// running the codec's verifySignature (verify-worker.ts), started by warm() or the first check.
// `verify` is what LedgerOptions.verify takes. From compiled JavaScript the worker is dist/server/verify-worker.js beside this bundle;
// from TypeScript sources (tests, the bench) it is loaded through tsx.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { verifySignature } from '../src/lib/codec/signature';

export interface VerifyRequest {
  id: number;
  message: Uint8Array;
  signature: string;
  signer: string;
}

export type VerifyReply = { id: number; valid: boolean } | { id: number; error: string };

export interface VerifyPool {
  /** Does `signature` sign `message` for `signer`? Rejects (with the codec's message) for one it cannot read. */
  verify(message: Uint8Array, signature: string, signer: string): Promise<boolean>;
  /** Worker threads started (some may still be loading). */
  readonly size: number;
  /** Start the workers now rather than at the first check (they take a few hundred ms to load). */
  warm(): void;
  /** Stop every worker; checks still waiting are refused. */
  close(): Promise<void>;
}

export interface VerifyPoolOptions {
  /** Worker threads; default: the cores this process may use. */
  threads?: number;
  /** Told when a worker fails (the pool replaces it, or falls back to checking on the event loop). */
  log?: (line: string) => void;
}

interface Job {
  request: VerifyRequest;
  resolve: (valid: boolean) => void;
  reject: (error: Error) => void;
}

interface Member {
  worker: Worker;
  ready: boolean;
  pending: Map<number, Job>;
}

/** The worker's entry: the compiled file beside this one, or the TypeScript source through tsx. */
function spawnWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new Worker(new URL('./verify-worker.js', here));
  const entry = new URL('./verify-worker.ts', here).href;
  const code = `import(${JSON.stringify(tsxEsmApi(here))}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}));`;
  return new Worker(code, { eval: true });
}

/** tsx's ESM API as a file URL (an eval worker resolves bare names from the working directory). */
function tsxEsmApi(from: string): string {
  const require = createRequire(from);
  const manifest = require.resolve('tsx/package.json');
  const { exports } = require(manifest) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api'].import.default)).href;
}

export function startVerifyPool(options: VerifyPoolOptions = {}): VerifyPool {
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const log = options.log ?? ((line) => console.error(line));
  const members = new Set<Member>();
  /** Checks that arrived before any worker was ready. */
  const backlog: Job[] = [];
  let nextId = 0;
  let closed = false;
  let warnedInline = false;

  const dispatch = (job: Job, member: Member) => {
    member.pending.set(job.request.id, job);
    if (member.pending.size === 1) member.worker.ref(); // keep the process alive while a check waits
    member.worker.postMessage(job.request);
  };

  const leastBusy = (): Member | undefined => {
    let best: Member | undefined;
    for (const m of members) if (m.ready && (!best || m.pending.size < best.pending.size)) best = m;
    return best;
  };

  /** No worker is running or starting (all failed to load): check here rather than never. */
  const inline = (job: Job) => {
    if (!warnedInline) log('signature checks: no worker thread could start; checking on the event loop');
    warnedInline = true;
    try {
      job.resolve(verifySignature(job.request.message, job.request.signature, job.request.signer));
    } catch (e) {
      job.reject(e instanceof Error ? e : new Error(String(e)));
    }
  };

  const start = () => {
    let worker: Worker;
    try {
      worker = spawnWorker();
    } catch (e) {
      log(`signature check worker could not start (${(e as Error).message})`);
      return; // with no member at all, checks run inline
    }
    const member: Member = { worker, ready: false, pending: new Map() };
    members.add(member);
    member.worker.unref();
    member.worker.on('message', (reply: VerifyReply | { ready: true }) => {
      if ('ready' in reply) {
        member.ready = true;
        for (const job of backlog.splice(0)) dispatch(job, leastBusy() ?? member);
        return;
      }
      const job = member.pending.get(reply.id);
      if (!job) return;
      member.pending.delete(reply.id);
      if (member.pending.size === 0) member.worker.unref();
      if ('error' in reply) job.reject(new Error(reply.error));
      else job.resolve(reply.valid);
    });
    const lost = (reason: string) => {
      if (!members.delete(member)) return;
      const orphans = [...member.pending.values()];
      member.pending.clear();
      if (closed) {
        for (const job of orphans) job.reject(new Error('The signature check was stopped: the host is stopping'));
        return;
      }
      log(`signature check worker stopped (${reason})${member.ready ? '; starting another' : ''}`);
      // A worker that never became ready would fail again: do not loop on it.
      if (member.ready) start();
      for (const job of orphans) submit(job);
      if (![...members].length) for (const job of backlog.splice(0)) inline(job);
    };
    member.worker.on('error', (error) => lost(error.message));
    member.worker.on('exit', (code) => lost(`exit code ${code}`));
  };

  let started = false;
  const warm = () => {
    if (started || closed) return;
    started = true;
    for (let i = 0; i < threads; i++) start();
  };

  const submit = (job: Job) => {
    warm();
    const member = leastBusy();
    if (member) dispatch(job, member);
    else if (members.size > 0) backlog.push(job);
    else inline(job);
  };

  return {
    get size() {
      return members.size;
    },
    warm,
    verify(message, signature, signer) {
      if (closed) return Promise.reject(new Error('The signature check was stopped: the host is stopping'));
      return new Promise<boolean>((resolve, reject) => submit({ request: { id: ++nextId, message, signature, signer }, resolve, reject }));
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const job of backlog.splice(0)) job.reject(new Error('The signature check was stopped: the host is stopping'));
      await Promise.all([...members].map((m) => m.worker.terminate()));
    }
  };
}
