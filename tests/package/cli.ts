// The `opalite` command of an installed package, run as a user runs it: node_modules/.bin/opalite
// in the project's folder, to completion or (serve) until it prints its URL.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function bin(project: string): string {
  return join(project, 'node_modules', '.bin', 'opalite');
}

/** Run `opalite <args>` in `project` to its end. */
export function runOpalite(project: string, args: string[]): Promise<Finished> {
  return new Promise((resolve) => {
    execFile(bin(project), args, { cwd: project, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: unknown }).code as number | null) : 0;
      resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}

export interface Serving {
  child: ChildProcess;
  /** The REST API's base URL the host printed. */
  url: string;
  output(): string;
  /** SIGTERM, then the exit code once it is gone. */
  stop(): Promise<number | null>;
}

/** `opalite serve <args>` in `project`, resolved once it prints the URL it answers at. */
export async function startServe(project: string, args: string[]): Promise<Serving> {
  const child = spawn(bin(project), ['serve', ...args], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /REST API .* at (http:\/\/127\.0\.0\.1:\d+\/sandbox\/v1)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`opalite serve exited before answering (code ${code}): ${output.slice(-2000)}`)));
  });
  return {
    child,
    url,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    }
  };
}
