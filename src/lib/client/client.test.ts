import { Keyring } from '@polkadot/keyring';
import { hexToU8a, u8aToHex } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../api/handler';
import { Ledger } from '../ledger/chain/ledger';
import { MemoryStore } from '../ledger/testing/memory-store';
import { IMPERSONATION_SIGNATURE } from '../codec/impersonation';
import { RestClient } from './client';
import { ApiError, ExtrinsicFailedError, NetworkError, errorText } from './errors';
import { runExtrinsic, type PayloadSigner } from './flow';

const BASE = 'http://127.0.0.1/sandbox/v1';

async function openClient(options: { impersonate?: boolean } = {}) {
  const ledger = await Ledger.open({ store: new MemoryStore() });
  const handler = createHandler({ ledger, impersonation: options.impersonate === undefined ? undefined : { enabled: () => options.impersonate!, anyHost: false } });
  return new RestClient({ baseUrl: `${BASE}/`, fetch: (input, init) => handler(new Request(input, init)) });
}

let sign: (uri: string) => PayloadSigner;
let alice: string;
let bob: string;

beforeAll(async () => {
  await cryptoWaitReady();
  const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
  alice = keyring.addFromUri('//Alice').address;
  bob = keyring.addFromUri('//Bob').address;
  sign = (uri) => async (built) => u8aToHex(keyring.addFromUri(uri).sign(hexToU8a(built.signerPayloadHex), { withType: true }));
});

describe('RestClient', () => {
  it('drops the trailing slash of the base URL and refuses what is not a URL', () => {
    expect(new RestClient({ baseUrl: `${BASE}//` }).baseUrl).toBe(BASE);
    expect(() => new RestClient({ baseUrl: 'sandbox' })).toThrow(/not a URL/);
    expect(() => new RestClient({ baseUrl: 'ftp://x/y' })).toThrow(/http/);
  });

  it('reads chain properties and answers null for a missing collection', async () => {
    const client = await openClient();
    expect((await client.chainProperties()).token).toBe('OPL');
    expect(await client.collection(42)).toBeNull();
  });

  it('runs Build → decode → sign → Submit → status and reports each step', async () => {
    const client = await openClient();
    const steps: string[] = [];
    let decodedCall = '';
    const result = await runExtrinsic(
      client,
      { method: 'POST', path: '/collections', body: { address: alice, name: 'Flow', description: 'd', tokenPrefix: 'FL' } },
      async (built, decoded) => {
        decodedCall = `${decoded.section}.${decoded.method} by ${decoded.signer}, fee ${decoded.fee?.amount}`;
        return sign('//Alice')(built, decoded);
      },
      { onProgress: (p) => steps.push(p.step), pollMs: 10 }
    );
    expect(decodedCall).toMatch(new RegExp(`^unique.createCollectionEx by ${alice}, fee \\d`));
    expect(steps).toEqual(['build', 'sign', 'submit', 'status', 'status']);
    expect(result.status.parsed).toEqual({ collectionId: 1 });
    expect((await client.collections({ owner: alice })).map((c) => c.name)).toEqual(['Flow']);
  });

  it('acts as an address without its key: the impersonation placeholder submitted with Authorization: Impersonate, marked in the status', async () => {
    const client = await openClient({ impersonate: true });
    const call = { method: 'POST' as const, path: '/collections', body: { address: alice, name: 'Acted', description: 'd', tokenPrefix: 'AC' } };
    const result = await runExtrinsic(client, call, async () => IMPERSONATION_SIGNATURE, { impersonate: alice, pollMs: 10 });
    expect(result.status.impersonated).toBe(true);
    expect(result.status.signer).toBe(alice);
    // Without the header the placeholder is just a bad signature; with impersonation off, a 403.
    await expect(runExtrinsic(client, call, async () => IMPERSONATION_SIGNATURE, { pollMs: 10 })).rejects.toBeInstanceOf(ApiError);
    const off = await runExtrinsic(await openClient({ impersonate: false }), call, async () => IMPERSONATION_SIGNATURE, { impersonate: alice, pollMs: 10 }).catch((e) => e);
    expect(off).toBeInstanceOf(ApiError);
    expect(off.status).toBe(403);
    expect(errorText(off)).toMatch(/Impersonation is off/);
  });

  it('turns a chain dispatch error into ExtrinsicFailedError with the chain’s words', async () => {
    const client = await openClient();
    await runExtrinsic(client, { method: 'POST', path: '/collections', body: { address: alice, name: 'A', description: '', tokenPrefix: 'A' } }, sign('//Alice'), { pollMs: 10 });
    const error = await runExtrinsic(client, { method: 'DELETE', path: '/collections', body: { address: bob, collectionId: 1 } }, sign('//Bob'), { pollMs: 10 }).catch((e) => e);
    expect(error).toBeInstanceOf(ExtrinsicFailedError);
    expect(error.message).toMatch(/\(common\.\w+\)$/);
    expect(error.status.isError).toBe(true);
  });

  it('turns the error envelope into ApiError and lists every validation problem', async () => {
    const client = await openClient();
    const error = await client.build({ method: 'POST', path: '/collections', body: { address: 'nope' } }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.errorName).toBe('ValidationError');
    expect(errorText(error)).toMatch(/Invalid address: nope/);
  });

  it('says which base URL could not be reached', async () => {
    const client = new RestClient({ baseUrl: 'http://nowhere.invalid/v1', fetch: async () => { throw new TypeError('Failed to fetch'); } });
    const error = await client.chainProperties().catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe('Could not reach http://nowhere.invalid/v1: Failed to fetch');
  });

  it('times out a request that never answers', async () => {
    const client = new RestClient({ baseUrl: 'http://slow.invalid/v1', timeoutMs: 20, fetch: (_i, init) => new Promise((_r, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted')))) });
    await expect(client.chainProperties()).rejects.toThrow('no answer within 0 seconds');
  });
});

describe('sameAddress', () => {
  it('compares public keys, not spellings', async () => {
    const { sameAddress } = await import('./address');
    const { encodeAddress, decodeAddress } = await import('@polkadot/util-crypto');
    expect(sameAddress(alice, encodeAddress(decodeAddress(alice), 7391))).toBe(true);
    expect(sameAddress(alice, bob)).toBe(false);
    expect(sameAddress(alice, 'garbage')).toBe(false);
    expect(sameAddress(null, alice)).toBe(false);
  });
});
