// Small I/O helpers of the hostile suite that the hostile benchmark uses too (no vitest here, so
// bench/ can import them): a process's memory from /proc, streamed bodies, write backpressure, and
// stopping a child process.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A memory figure of a process from /proc/<pid>/status, in bytes. */
export function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(match[1]) * 1024;
}

/** `size` bytes of a body in chunks of 64 KiB, with no content-length. */
export async function* chunks(size: number, chunk = 64 * 1024, fill = 'a'): AsyncIterable<Buffer> {
  const piece = Buffer.alloc(chunk, fill);
  for (let sent = 0; sent < size; sent += chunk) yield sent + chunk <= size ? piece : piece.subarray(0, size - sent);
}

/** Wait until a socket or request can take more, or is gone. */
export function drained(stream: { on(event: string, fn: () => void): unknown; off(event: string, fn: () => void): unknown }): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * Stop a child process: SIGTERM, then SIGKILL after 3 s (a host stuck in a synchronous loop never
 * handles SIGTERM: do not wait for it forever). `exited` settles when the child has exited.
 */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(killer);
}
