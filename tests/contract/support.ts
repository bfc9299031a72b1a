// Shared set-up for contract tests: a Node host on a free port, the real @unique-nft/sdk client
// with sr25519 signers for the dev accounts, and raw HTTP helpers.
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

export async function startTestHost(options: Partial<HostOptions> = {}): Promise<RunningHost> {
  return startHost({ port: 0, log: () => {}, ...options });
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
