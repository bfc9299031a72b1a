// The sign dialog's state, against a fake REST service: the one signing rule before any dialog
// (a refusal with its reason, the chain asked again after a reset), Sign armed only ARM_DELAY_MS
// after the dialog shows what it shows (again when the preview arrives), a call the dry run
// refuses never signable, and an app's request closed at once when its access ends.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RestClient } from '../client/client';
import type { BuildResult, DecodedCall, DryRun } from '../client/types';
import { encodeCall } from '../codec/calls';
import { encodeMortalEra } from '../codec/era';
import { SIGNED_EXTENSIONS, buildSignerPayloadJSON, encodeExtrinsicPayload, signerPayloadHex } from '../codec/payload';
import { ARM_DELAY_MS, SignAbortedError, SignRefusedError, checkedForSigning, extrinsicSubject, signing } from './signing.svelte';

// No wallet here (it lives in IndexedDB): the names the preview uses come from the dev accounts.
vi.mock('./session.svelte', () => ({ session: { accounts: [], account: () => undefined } }));

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const GENESIS = '0x' + '11'.repeat(32);
const NEW_GENESIS = '0x' + '33'.repeat(32);

/** A fake service: its chain properties (genesis changeable), a dry run answer, and a count of what was asked. */
function fakeService(dryRun: () => DryRun | null) {
  const state = { genesis: GENESIS, chainAsked: 0 };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (url.pathname.endsWith('/common/chain-properties')) {
      state.chainAsked++;
      return json(200, { SS58Prefix: 42, token: 'OPL', decimals: 18, genesisHash: state.genesis, signedExtensions: SIGNED_EXTENSIONS });
    }
    if (url.pathname.endsWith('/extrinsic/dry-run') && init?.method === 'POST') {
      const answer = dryRun();
      return answer ? json(200, answer) : json(404, { statusCode: 404, message: 'Cannot POST', error: 'Not Found' });
    }
    if (url.pathname.endsWith('/collections')) return json(200, null);
    if (url.pathname.endsWith('/balance')) return json(200, { address: ALICE, availableBalance: { raw: '0', amount: '0', formatted: '0', unit: 'OPL', decimals: 18 }, freeBalance: { raw: '0', amount: '0', formatted: '0', unit: 'OPL', decimals: 18 } });
    return json(404, { error: { message: `no ${url.pathname}` } });
  };
  // A base_url of its own per test: the app caches chain properties per base_url.
  const client = new RestClient({ baseUrl: `http://svc-${Math.random().toString(36).slice(2)}.test/v1`, fetch });
  return { client, state };
}

function built(genesis = GENESIS): BuildResult {
  const signerPayloadJSON = buildSignerPayloadJSON({
    address: ALICE,
    method: encodeCall({ name: 'balances.transferKeepAlive', args: { dest: BOB, value: 5n * 10n ** 18n } }),
    nonce: 0,
    era: encodeMortalEra(64, 10),
    blockHash: '0x' + 'ab'.repeat(32),
    blockNumber: 10,
    genesisHash: genesis,
    specVersion: 1,
    transactionVersion: 1
  });
  return { signerPayloadJSON, signerPayloadHex: signerPayloadHex(encodeExtrinsicPayload(signerPayloadJSON)) };
}

const decoded: DecodedCall = { section: 'balances', method: 'transferKeepAlive', args: {}, signer: ALICE, nonce: 0 };
const fee = { raw: '12000000000000000', amount: '0.012', formatted: '0.012', unit: 'OPL', decimals: 18 };
const okRun: DryRun = { ok: true, error: null, fee, feePayer: ALICE, events: [], changes: [{ kind: 'balance', address: BOB, before: '0', after: '5000000000000000000' }], notes: [] };
const refusedRun: DryRun = { ...okRun, ok: false, error: { message: 'Balance too low', details: { section: 'balances', name: 'InsufficientBalance' } }, changes: [] };

async function open(dryRun: () => DryRun | null, signal?: AbortSignal) {
  const { client } = fakeService(dryRun);
  const payload = built();
  const subject = extrinsicSubject(payload, decoded, await checkedForSigning(client, payload));
  const signature = signing.ask({ title: 'Send', signer: ALICE, client, subject }, { signal });
  signature.catch(() => {});
  return { signature, request: () => signing.current! };
}

// The dialog loads the preview's code when it opens (not with the first page); loaded once here, the
// dynamic imports resolve at once, so the fake clock below is all that moves the dialog on.
beforeAll(async () => {
  await Promise.all([import('../client/sign/load'), import('./address-book.svelte'), import('../codec/signing-rule')]);
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(() => {
  signing.dismiss();
  signing.close();
  vi.useRealTimers();
});

describe('the signing rule before any dialog', () => {
  it('signs the rule’s message, never a service’s hex that differs, and names why', async () => {
    const { client } = fakeService(() => okRun);
    const payload = built();
    expect((await checkedForSigning(client, payload)).messageHex).toBe(payload.signerPayloadHex);
    const tampered = { ...payload, signerPayloadHex: payload.signerPayloadHex.replace(/..$/, '00') };
    await expect(checkedForSigning(client, tampered)).rejects.toThrow(SignRefusedError);
    await expect(checkedForSigning(client, tampered)).rejects.toThrow(/^Opalite will not sign this: The service’s signerPayloadHex is not the payload it describes/);
    const fewer = { ...payload, signerPayloadJSON: { ...payload.signerPayloadJSON, signedExtensions: SIGNED_EXTENSIONS.slice(0, -1) } };
    await expect(checkedForSigning(client, fewer)).rejects.toThrow(/signedExtensions must be exactly this chain's/);
  });

  it('asks the service once per base_url, and once more for a payload of another genesis (after a reset)', async () => {
    const { client, state } = fakeService(() => okRun);
    await checkedForSigning(client, built());
    await checkedForSigning(client, built());
    expect(state.chainAsked).toBe(1);
    state.genesis = NEW_GENESIS;
    await checkedForSigning(client, built(NEW_GENESIS));
    expect(state.chainAsked).toBe(2);
    // A payload for a chain the service is not: refused after asking again.
    await expect(checkedForSigning(client, built(GENESIS))).rejects.toThrow(/payload is for another chain/);
    expect(state.chainAsked).toBe(3);
  });
});

describe('the sign dialog’s request', () => {
  it('arms Sign only ARM_DELAY_MS after it shows the preview, and previews the call', async () => {
    const { request } = await open(() => okRun);
    expect(request().armed).toBe(false);
    expect(signing.canSign(request())).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(request().preview?.status).toBe('ready');
    const preview = request().preview?.status === 'ready' ? (request().preview as { preview: { summary: string } }).preview : null;
    expect(preview?.summary).toBe('Transfer 5 OPL to Bob');
    await vi.advanceTimersByTimeAsync(ARM_DELAY_MS - 1);
    expect(signing.canSign(request())).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signing.canSign(request())).toBe(true);
    // Shown again (a dialog that loaded late): it waits again.
    signing.shown(request().id);
    expect(signing.canSign(request())).toBe(false);
  });

  it('never lets a call the dry run refuses be signed, however long it is shown', async () => {
    const { request } = await open(() => refusedRun);
    await vi.advanceTimersByTimeAsync(ARM_DELAY_MS * 10);
    expect(request().armed).toBe(true);
    expect(signing.canSign(request())).toBe(false);
    const state = request().preview;
    expect(state?.status === 'ready' && state.preview.refusal).toBe('The chain would refuse this call: Balance too low (balances.InsufficientBalance). Opalite will not sign it.');
  });

  it('on a service without a dry run, refuses a signer who cannot pay the fee there', async () => {
    const { request } = await open(() => null);
    await vi.advanceTimersByTimeAsync(ARM_DELAY_MS);
    const state = request().preview;
    expect(state?.status).toBe('ready');
    if (state?.status !== 'ready') return;
    expect(state.preview.previewed).toBe(false);
    expect(state.preview.notes[0]).toMatch(/cannot preview what this call will do \(it has no dry run\)/);
    expect(state.preview.refusal).toMatch(/^Your account has 0 OPL on http:\/\/svc-\w+\.test\/v1, and this needs 5 OPL: it would not go through there/);
    expect(signing.canSign(request())).toBe(false);
  });

  it('closes at once when the app’s access ends, and rejects: nothing is signed', async () => {
    const controller = new AbortController();
    const { signature } = await open(() => okRun, controller.signal);
    expect(signing.current).not.toBeNull();
    controller.abort();
    expect(signing.current).toBeNull();
    await expect(signature).rejects.toBeInstanceOf(SignAbortedError);
    // An access already ended opens no dialog at all.
    const { client } = fakeService(() => okRun);
    const payload = built();
    const subject = extrinsicSubject(payload, decoded, await checkedForSigning(client, payload));
    await expect(signing.ask({ title: 'Send', signer: ALICE, client, subject }, { signal: controller.signal })).rejects.toBeInstanceOf(SignAbortedError);
    expect(signing.current).toBeNull();
  });
});
