// Shared set-up for contract tests: a Node host on a free port (a temporary SQLite ledger), the
// real @unique-nft/sdk client with sr25519 signers for the dev accounts, and raw HTTP helpers.
import { request as httpRequest } from 'node:http';
import Sdk from '@unique-nft/sdk';
import { Sr25519Account } from '@unique-nft/sdk/sr25519';
import { startHost, type HostOptions, type RunningHost } from '../../server/host';

export const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const CHARLIE = '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y';

export function account(uri: string) {
  return Sr25519Account.fromUri(uri);
}

export function sdkFor(host: RunningHost, uri = '//Alice') {
  return new Sdk({ baseUrl: host.url, signer: account(uri).signer, waitBetweenStatusRequestsInMs: 20, statusTotalTimeoutInMs: 10_000 });
}

/** The status object carries isError (the 0.7.7 typings omit it). */
export const isError = (result: unknown) => (result as { isError?: boolean }).isError;

/** `{section, method, args}` of the real client's `extrinsic.*` methods with Opalite's named arguments (the 0.7.7 typings say a list, which the host also takes). */
export const generic = (section: string, method: string, args: Record<string, unknown>) => ({ section, method, args: args as never });

/** A test host with SDK clients signing as //Alice and //Bob. */
export async function startSdkHost(): Promise<{ host: RunningHost; alice: Sdk; bob: Sdk }> {
  const host = await startTestHost();
  return { host, alice: sdkFor(host, '//Alice'), bob: sdkFor(host, '//Bob') };
}

/** One signature-check thread (the pool is exercised; a test machine's cores are shared by many hosts). */
export async function startTestHost(options: Partial<HostOptions> = {}): Promise<RunningHost> {
  return startHost({ port: 0, log: () => {}, verifyThreads: 1, ...options });
}

export interface Http {
  status: number;
  body: any;
}

/** Raw HTTP against the host: path is relative to the base URL unless it starts with http. */
export async function http(host: RunningHost, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Http> {
  const url = path.startsWith('http') ? path : host.url + path;
  const init: RequestInit = { method, headers: { accept: 'application/json', ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** One custodial request that builds, signs and waits for the result. */
export async function custodial(host: RunningHost, method: string, path: string, body: unknown, uri = '//Alice'): Promise<Http> {
  const sep = path.includes('?') ? '&' : '?';
  return http(host, method, `${path}${sep}use=Result`, body, { authorization: `Seed ${uri}` });
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/**
 * One request over node:http, for what fetch will not send: any Host header, a Content-Length
 * without the body it announces (the answer must come before any of it is sent).
 */
export function rawRequest(host: RunningHost, options: { method: string; path: string; headers?: Record<string, string>; body?: string; sendBody?: boolean }): Promise<RawAnswer> {
  const url = new URL(options.path.startsWith('http') ? options.path : host.url + options.path);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method: options.method, path: url.pathname + url.search, headers: options.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        if (options.sendBody === false) req.destroy(); // the announced body is never sent
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (options.sendBody === false) req.flushHeaders();
    else req.end(options.body);
  });
}
