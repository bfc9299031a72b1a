// The Node host as a child process, as `npm run serve` runs it: on a data file, killed as a crash
// kills it (SIGKILL) and started again on the same file.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..', '..');

export interface ChildHost {
  child: ChildProcess;
  /** Base URL of the REST API (…/sandbox/v1). */
  url: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL and wait until the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<number | null>;
}

export interface ChildHostOptions {
  data: string;
  /** `--blocks` (instant when absent). */
  blocks?: string;
  extraArgs?: string[];
  env?: Record<string, string>;
  /** Options for Node itself (`--import <file>`). */
  nodeOptions?: string[];
  /** A command that runs Node, placed before it (`strace -o …`); `child` is then that command. */
  launcher?: string[];
}

/** How the child runs the host: as `npm run serve` does (compiled JavaScript, rebuilt when stale). */
function hostCommand(): string[] {
  return [join(ROOT, 'scripts', 'serve.mjs')];
}

export async function startChildHost(options: ChildHostOptions): Promise<ChildHost> {
  const args = [...hostCommand(), '--port', '0', '--data', options.data, ...(options.blocks ? ['--blocks', options.blocks] : []), ...(options.extraArgs ?? [])];
  const [command, ...commandArgs] = [...(options.launcher ?? []), process.execPath, ...(options.nodeOptions ?? []), ...args];
  const child = spawn(command, commandArgs, { cwd: ROOT, env: { ...process.env, PORT: '0', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/sandbox\/v1)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 20);
    void exited.then(({ code, signal }) => {
      clearInterval(timer);
      reject(new Error(`the host exited before answering (code ${code}, signal ${signal}): ${output.slice(-2000)}`));
    });
  });
  return {
    child,
    url,
    output: () => output,
    exited,
    async crash() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      return (await exited).code;
    }
  };
}

/** The compiled host, `dist/server/main.js`: built now if stale (serve.mjs builds, then `--help` exits). */
export const HOST_MAIN = join(ROOT, 'dist', 'server', 'main.js');

/** Build the host once before starting processes of it directly (not one build in each of them). */
export function buildHostOnce(): void {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'serve.mjs'), '--help'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0 || !existsSync(HOST_MAIN)) throw new Error(`building the host failed: ${built.stderr || built.stdout}`);
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDirectory(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
