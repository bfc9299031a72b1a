// What the hostile suite shares: the Node host in a child process (host-process.ts), raw HTTP
// with full control of method, path, headers and streamed bodies (node:http), the error-envelope
// checks, the host's resident memory from /proc, and the Build → sign flow of a real client.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { HostOptions } from '../../../server/host';
import { drained, statusField, stopChild } from './process-io';
import { ALICE, account } from '../support';

export { ALICE, BOB, CHARLIE, account } from '../support';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const ENTRY = join(import.meta.dirname, 'host-process.ts');

/** How much of any input an error may quote (DECISIONS: MAX_QUOTE_CHARS = 120), with slack for framing. */
export const MAX_ECHO_CHARS = 130;
/** The longest error message a client should ever get back. */
export const MAX_MESSAGE_CHARS = 1024;
/** One megabyte, the size of every oversized field in limits.test.ts. */
export const ONE_MB = 1_000_000;
export const MiB = 1024 * 1024;

export interface ChildHost {
  /** `http://127.0.0.1:<port>/sandbox/v1` */
  url: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `/sandbox/v1` */
  basePath: string;
  pid: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr. */
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Start the Node host (support.ts startTestHost) in a child process and wait for its URL. */
export async function startChildHost(options: Partial<HostOptions> = {}): Promise<ChildHost> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
    cwd: ROOT,
    env: { ...process.env, OPALITE_HOST_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'pipe', 'pipe']
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /OPALITE_READY (\{.*\})/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(JSON.parse(match[1]));
      }
    }, 25);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`the host process exited before it was ready: ${output}`));
    });
  });
  const url = new URL(ready.url);
  return {
    url: ready.url,
    origin: url.origin,
    basePath: url.pathname,
    pid: ready.pid,
    child,
    output: () => output,
    exited,
    stop: () => stopChild(child, exited)
  };
}

// ---- memory ----------------------------------------------------------------------------------


/** Resident memory of a process now, in bytes. */
export const residentBytes = (pid: number) => statusField(pid, 'VmRSS');

/**
 * Watch a process's resident memory while `work` runs: the peak above where it started. Uses the
 * kernel's high-water mark (reset first through clear_refs) and samples VmRSS besides, so a burst
 * between samples is not missed.
 */
export async function residentGrowth<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; growth: number; before: number; peak: number }> {
  let peakResetWorked = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    peakResetWorked = false;
  }
  const before = residentBytes(pid);
  let peak = before;
  const sample = setInterval(() => {
    try {
      peak = Math.max(peak, residentBytes(pid));
    } catch {
      // the process is gone; the test will say so
    }
  }, 10);
  try {
    const result = await work();
    peak = Math.max(peak, residentBytes(pid));
    if (peakResetWorked) peak = Math.max(peak, statusField(pid, 'VmHWM'));
    return { result, growth: peak - before, before, peak };
  } finally {
    clearInterval(sample);
  }
}

// ---- raw HTTP --------------------------------------------------------------------------------

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
  /** Over node:http (a whole body): whether the request went over a connection an earlier one opened. */
  reused?: boolean;
}

export interface RawRequest {
  method: string;
  /** Sent verbatim as the request target (no normalisation or encoding). */
  path: string;
  headers?: Record<string, string>;
  /** A whole body (content-length is set), or chunks streamed (chunked unless a content-length header is given). */
  body?: string | Buffer | (() => AsyncIterable<Buffer | string>);
  /** Give up (and fail) when no answer came in this long: a liveness guard, not a speed check. */
  timeoutMs?: number;
  agent?: Agent;
  /** A streamed body is sent whole even after an early answer, as long as the host reads it (it may drain it). */
  sendAll?: boolean;
}

export const keepAlive = new Agent({ keepAlive: true, maxSockets: 32 });

/**
 * One request; the answer is read whole. A whole body goes over node:http; a streamed body over a
 * raw socket (see sendStreaming).
 */
export function send(origin: string, request: RawRequest): Promise<Answer> {
  if (typeof request.body === 'function') return sendStreaming(origin, request);
  const { method, path, headers = {}, body, timeoutMs = 20_000 } = request;
  const target = new URL(origin);
  const allHeaders: Record<string, string> = { ...headers };
  if (body !== undefined) allHeaders['content-length'] ??= String(Buffer.byteLength(body));
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, method, path, headers: allHeaders, agent: request.agent ?? keepAlive, setHost: !('host' in allHeaders) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ ...answerOf(res.statusCode ?? 0, res.headers, Buffer.concat(chunks)), reused: req.reusedSocket });
        });
        res.on('error', reject);
      }
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${path.slice(0, 100)}: no answer within ${timeoutMs} ms (the host is busy or stuck)`));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}

function answerOf(status: number, headers: IncomingHttpHeaders, bytes: Buffer): Answer {
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

/**
 * A streamed body (chunked, unless the caller declares a content-length) over a raw socket. A
 * host may answer early (413) and close while the body is still being written, as browsers
 * expect; node:http's client would then report the broken pipe instead of the answer, so reading
 * is kept apart from writing here: whatever answer arrived before the close is returned.
 */
function sendStreaming(origin: string, request: RawRequest): Promise<Answer> {
  const { method, path, headers = {}, timeoutMs = 20_000 } = request;
  const body = request.body as () => AsyncIterable<Buffer | string>;
  const target = new URL(origin);
  const declared = Object.keys(headers).some((h) => h.toLowerCase() === 'content-length');
  const lines = [`${method} ${path} HTTP/1.1`];
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'host')) lines.push(`host: ${target.host}`);
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (!declared) lines.push('transfer-encoding: chunked');
  lines.push('connection: close', '', '');
  return new Promise<Answer>((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    let received = Buffer.alloc(0);
    let settled = false;
    let early: Answer | null = null;
    let bodySent = false;
    const finish = (answer: Answer | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (answer instanceof Error) reject(answer);
      else resolve(answer);
    };
    const timer = setTimeout(() => finish(new Error(`${method} ${path.slice(0, 100)}: no answer within ${timeoutMs} ms (the host is busy or stuck)`)), timeoutMs);
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const answer = parseResponse(received, false);
      if (answer && (!request.sendAll || bodySent)) finish(answer);
      else if (answer) early = answer;
    });
    let socketError = '';
    socket.on('close', () =>
      finish(
        early ??
          parseResponse(received, true) ??
          new Error(`${method} ${path.slice(0, 100)}: the connection closed without an answer${socketError ? ` (${socketError}: the host closed with body bytes unread, and the reset lost its answer)` : ''}`)
      )
    );
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A broken pipe while writing: the answer (if any) is still read until the close.
      socketError ||= error.code ?? error.message;
    });
    void (async () => {
      try {
        socket.write(lines.join('\r\n'));
        for await (const chunk of body()) {
          if (settled || socket.destroyed) return;
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          const framed = declared ? bytes : Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
          if (!socket.write(framed)) await drained(socket);
        }
        if (!settled && !socket.destroyed && !declared) socket.write('0\r\n\r\n');
        bodySent = true;
        if (early) finish(early);
      } catch {
        // the connection went away mid-body
      }
    })();
  });
}

/** An HTTP/1.1 response from raw bytes once it is complete (or at the close, whatever arrived); null before. */
function parseResponse(bytes: Buffer, closed: boolean): Answer | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...headerLines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  if (status === 100) return parseResponse(bytes.subarray(end + 4), closed);
  const headers: IncomingHttpHeaders = {};
  for (const line of headerLines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  let rest = bytes.subarray(end + 4);
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (rest.length < length) return closed ? answerOf(status, headers, rest) : null;
    return answerOf(status, headers, rest.subarray(0, length));
  }
  if (String(headers['transfer-encoding']).toLowerCase() === 'chunked') {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd < 0) return closed ? answerOf(status, headers, Buffer.concat(parts)) : null;
      const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
      if (size === 0) return answerOf(status, headers, Buffer.concat(parts));
      if (rest.length < lineEnd + 2 + size + 2) return closed ? answerOf(status, headers, Buffer.concat(parts)) : null;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
  }
  return closed ? answerOf(status, headers, rest) : null;
}


export { chunks } from './process-io';

/** Does the host still answer a plain read? */
export async function answersRead(host: { origin: string; basePath: string }, timeoutMs = 10_000): Promise<boolean> {
  try {
    const res = await send(host.origin, { method: 'GET', path: `${host.basePath}/common/chain-properties`, timeoutMs, agent: new Agent() });
    return res.status === 200 && typeof res.json?.genesisHash === 'string';
  } catch {
    return false;
  }
}

// ---- assertions ------------------------------------------------------------------------------

/** A 4xx answer in the error envelope {error:{code,name,message}} with a bounded message. */
export function expectClientError(res: Answer, status?: number | number[], name?: string): void {
  const context = `${res.status} ${res.text.slice(0, 300)}`;
  if (Array.isArray(status)) expect(status, context).toContain(res.status);
  else if (status !== undefined) expect(res.status, context).toBe(status);
  else {
    expect(res.status, context).toBeGreaterThanOrEqual(400);
    expect(res.status, context).toBeLessThan(500);
  }
  expect(res.json?.error, context).toMatchObject({ code: expect.stringMatching(/^UN\d{5}$/), name: expect.any(String), message: expect.any(String) });
  if (name) expect(res.json.error.name, context).toBe(name);
  expect(res.json.error.message.length, context).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
}

/** The answer quotes no more than MAX_ECHO_CHARS of an input made by repeating `unit`. */
export function expectNoEcho(res: Answer, unit: string): void {
  const run = unit.repeat(Math.ceil(MAX_ECHO_CHARS / unit.length) + 1);
  expect(res.text.includes(run), `the answer (${res.text.length} chars) quotes more than ${MAX_ECHO_CHARS} chars of the input: ${res.text.slice(0, 200)}…`).toBe(false);
}

// ---- a real client ----------------------------------------------------------------------------

export function jsonHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json', ...extra };
}

/** A JSON request to a path below the base URL. */
export function api(host: { origin: string; basePath: string }, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, timeoutMs?: number): Promise<Answer> {
  return send(host.origin, {
    method,
    path: host.basePath + path,
    headers: body === undefined ? { accept: 'application/json', ...headers } : jsonHeaders(headers),
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    timeoutMs
  });
}

/** A custodial `use=Result` write that must succeed on chain. */
export async function custodial(host: { origin: string; basePath: string }, method: string, path: string, body: unknown, uri = '//Alice'): Promise<any> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await api(host, method, `${path}${sep}use=Result`, body, { authorization: `Seed ${uri}` });
  expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBe(201);
  expect(res.json.isError, `${method} ${path}: ${res.text.slice(0, 300)}`).toBe(false);
  return res.json;
}

export interface Signed {
  signerPayloadJSON: Record<string, unknown> & { address: string };
  signature: string;
}

/** Build → sign locally with sr25519, as the SDK does. */
export async function buildAndSign(host: { origin: string; basePath: string }, method: string, path: string, body: unknown, uri = '//Alice'): Promise<Signed> {
  const built = await api(host, method, `${path}?use=Build`, body);
  expect(built.status, built.text.slice(0, 300)).toBe(201);
  const { signature } = await account(uri).signer.sign(built.json);
  return { signerPayloadJSON: built.json.signerPayloadJSON, signature };
}

export async function createCollection(host: { origin: string; basePath: string }, extra: Record<string, unknown> = {}, uri = '//Alice', owner?: string): Promise<number> {
  const result = await custodial(host, 'POST', '/collections', { address: owner ?? ALICE, name: 'Hostile', description: 'hostile suite', tokenPrefix: 'HST', ...extra }, uri);
  return result.parsed.collectionId as number;
}
