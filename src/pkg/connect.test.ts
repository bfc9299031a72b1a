// opalite/connect against a fake Opalite window: the handshake's features and accounts, the
// account list and its subscription as the polkadot{.js} extension gives them, what an older
// Opalite (no features) refuses, how refusals map to error codes, and the adapters
// (enableOpalite, injectOpalite) with the shapes @polkadot/api and extension-dapp take.
import type { Signer } from '@polkadot/types/types';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpaliteConnectError, connectOpalite, enableOpalite, injectOpalite, type InjectedAccount, type OpaliteConnection } from './connect';

const OPALITE = 'https://opalite.example';
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const GENESIS = `0x${'ab'.repeat(32)}`;
const alice = { address: ALICE, name: 'Alice', type: 'sr25519', genesisHash: GENESIS };
const bob = { address: BOB, name: 'Bob', type: 'sr25519', genesisHash: GENESIS };

/** The Opalite window: records what the page posts; `says` answers as Opalite's origin. */
class FakePopup {
  readonly posted: any[] = [];
  closed = false;
  focus = vi.fn();
  postMessage(message: unknown, options: WindowPostMessageOptions) {
    expect(options.targetOrigin).toBe(OPALITE);
    this.posted.push(message);
  }
  close() {
    this.closed = true;
  }
}

let popup: FakePopup;
let listeners: Set<(event: unknown) => void>;

/** A message from the popup, as the page's `message` event gives it. */
function says(data: unknown, from: { source?: unknown; origin?: string } = {}) {
  for (const listener of [...listeners]) listener({ source: from.source ?? popup, origin: from.origin ?? OPALITE, data });
}

beforeEach(() => {
  popup = new FakePopup();
  listeners = new Set();
  vi.stubGlobal('window', {
    open: vi.fn(() => popup),
    addEventListener: (type: string, listener: (event: unknown) => void) => type === 'message' && listeners.add(listener),
    removeEventListener: (type: string, listener: (event: unknown) => void) => listeners.delete(listener)
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Connects, the window answering `ready` with `ready` (features and accounts as given). */
async function connect(ready: Record<string, unknown> = { features: ['accounts', 'sign-raw'], accounts: [alice] }, appName?: string): Promise<OpaliteConnection> {
  const opened = connectOpalite({ opaliteUrl: `${OPALITE}/some/page`, appName });
  says({ v: 1, type: 'loaded' });
  says({ v: 1, type: 'ready', apiPath: '/sandbox/v1', ...ready });
  return opened;
}

describe('the handshake', () => {
  it('says hello with the app name, and takes the accounts and features of ready', async () => {
    const connection = await connect(undefined, 'Shop');
    expect(popup.posted[0]).toEqual({ v: 1, type: 'hello', appName: 'Shop' });
    expect(connection.baseUrl).toBe(`${OPALITE}/sandbox/v1`);
    expect(await connection.accounts()).toEqual([alice]);
  });

  it('says why an origin cannot connect (unsupported-origin), apart from a denial (refused)', async () => {
    const unsupported = connectOpalite({ opaliteUrl: OPALITE });
    says({ v: 1, type: 'refused', reason: 'unsupported-origin', message: 'http://lan.example is plain http on the network' });
    await expect(unsupported).rejects.toMatchObject({ code: 'unsupported-origin', message: 'http://lan.example is plain http on the network' });
    expect(popup.closed).toBe(true);

    popup = new FakePopup();
    const denied = connectOpalite({ opaliteUrl: OPALITE });
    says({ v: 1, type: 'refused', reason: 'denied', message: 'The person denied access to the Opalite sandbox' });
    await expect(denied).rejects.toMatchObject({ code: 'refused' });
  });

  it('an older Opalite (no features): fetch and signPayload work, accounts and signRaw say it is too old', async () => {
    const connection = await connect({});
    await expect(connection.accounts()).rejects.toMatchObject({ code: 'unsupported', message: `The Opalite at ${OPALITE} is too old to list the accounts shared with this page: update it` });
    expect(() => connection.subscribeAccounts(() => {})).toThrow(OpaliteConnectError);
    await expect(connection.signRaw({ address: ALICE, data: 'hi' })).rejects.toMatchObject({ code: 'unsupported' });
    const signed = connection.signPayload({} as never);
    says({ v: 1, type: 'signed', id: popup.posted.at(-1).id, signature: '0x01ff' });
    expect(await signed).toEqual({ id: expect.any(Number), signature: '0x01ff' });
  });
});

describe('accounts', () => {
  it('subscribers get the list now and every change; a revocation empties it; the stop stops', async () => {
    const connection = await connect();
    const seen: InjectedAccount[][] = [];
    const stop = connection.subscribeAccounts((accounts) => seen.push(accounts));
    expect(seen).toEqual([]); // the first call comes after the caller has its stop
    await Promise.resolve();
    expect(seen).toEqual([[alice]]);
    says({ v: 1, type: 'accounts', accounts: [alice, bob] });
    expect(seen.at(-1)).toEqual([alice, bob]);
    expect(await connection.accounts()).toEqual([alice, bob]);
    says({ v: 1, type: 'refused', reason: 'revoked', message: 'Access to the Opalite sandbox was revoked' });
    expect(connection.state).toBe('revoked');
    expect(seen.at(-1)).toEqual([]);
    expect(await connection.accounts()).toEqual([]);
    stop();
    says({ v: 1, type: 'accounts', accounts: [bob] });
    expect(seen).toHaveLength(3);
  });

  it('a list a subscriber changes is its own copy; a throwing subscriber does not keep others from hearing', async () => {
    const connection = await connect();
    vi.stubGlobal('reportError', vi.fn());
    const heard: InjectedAccount[][] = [];
    connection.subscribeAccounts(() => {
      throw new Error('subscriber bug');
    });
    connection.subscribeAccounts((accounts) => {
      accounts[0].name = 'changed';
      heard.push(accounts);
    });
    says({ v: 1, type: 'accounts', accounts: [alice] });
    expect(heard).toHaveLength(1);
    expect((await connection.accounts())[0].name).toBe('Alice');
    expect(reportError).toHaveBeenCalledWith(new Error('subscriber bug'));
  });

  it('ignores a malformed or oversized list, from its window and origin only', async () => {
    const connection = await connect();
    for (const accounts of ['x', [{ name: 'no address' }], [{ address: 'x'.repeat(300) }], Array(1001).fill(alice)]) says({ v: 1, type: 'accounts', accounts });
    says({ v: 1, type: 'accounts', accounts: [bob] }, { origin: 'https://evil.example' });
    says({ v: 1, type: 'accounts', accounts: [bob] }, { source: {} });
    expect(await connection.accounts()).toEqual([alice]);
    // Unknown key types and fields are not passed on.
    says({ v: 1, type: 'accounts', accounts: [{ address: BOB, type: 'rsa', extra: 1 }] });
    expect(await connection.accounts()).toEqual([{ address: BOB, genesisHash: null }]);
  });

  it('after the window closes, accounts and subscriptions reject with closed', async () => {
    const connection = await connect();
    says({ v: 1, type: 'closed' });
    await expect(connection.accounts()).rejects.toMatchObject({ code: 'closed' });
    expect(() => connection.subscribeAccounts(() => {})).toThrow(/closed/);
  });
});

describe('signRaw', () => {
  it('sends address, data and type only, and maps refusals', async () => {
    const connection = await connect();
    const signed = connection.signRaw({ address: ALICE, data: '0x1234', type: 'bytes', extra: 'x' } as never);
    const sent = popup.posted.at(-1);
    expect(sent).toEqual({ v: 1, type: 'sign-raw', id: expect.any(Number), raw: { address: ALICE, data: '0x1234', type: 'bytes' } });
    says({ v: 1, type: 'signed', id: sent.id, signature: '0x01aa' });
    expect(await signed).toEqual({ id: sent.id, signature: '0x01aa' });

    const refused = connection.signRaw({ address: BOB, data: 'hi' });
    says({ v: 1, type: 'sign-failed', id: popup.posted.at(-1).id, reason: 'refused', message: 'not shared' });
    await expect(refused).rejects.toMatchObject({ code: 'sign-refused', message: 'not shared' });
  });
});

describe('the polkadot{.js} extension shape', () => {
  it('enableOpalite: accounts.get/subscribe and a signer @polkadot/api takes', async () => {
    const enabling = enableOpalite({ opaliteUrl: OPALITE, appName: 'Shop' });
    says({ v: 1, type: 'loaded' });
    says({ v: 1, type: 'ready', apiPath: '/sandbox/v1', features: ['accounts', 'sign-raw'], accounts: [alice] });
    const injected = await enabling;
    expect(injected.name).toBe('opalite');
    expect(injected.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await injected.accounts.get(true)).toEqual([alice]);
    const seen: InjectedAccount[][] = [];
    injected.accounts.subscribe((accounts) => void seen.push(accounts));
    await Promise.resolve();
    expect(seen).toEqual([[alice]]);

    // The type @polkadot/api's signAndSend(address, { signer }) takes.
    const signer: Signer = injected.signer;
    const result = signer.signPayload!({ address: ALICE } as never);
    says({ v: 1, type: 'signed', id: popup.posted.at(-1).id, signature: '0x01bb' });
    expect(await result).toMatchObject({ signature: '0x01bb' });
  });

  it('injectOpalite lists Opalite where web3Enable looks, and enable opens the window with the app name', async () => {
    injectOpalite({ opaliteUrl: OPALITE });
    const provider = (window as unknown as { injectedWeb3: Record<string, { version: string; enable(name: string): Promise<unknown> }> }).injectedWeb3.opalite;
    expect(provider.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(window.open).not.toHaveBeenCalled();
    const enabled = provider.enable('my cool dapp');
    expect(window.open).toHaveBeenCalledWith(`${OPALITE}/connect`, '_blank', expect.any(String));
    says({ v: 1, type: 'loaded' });
    expect(popup.posted[0]).toEqual({ v: 1, type: 'hello', appName: 'my cool dapp' });
    says({ v: 1, type: 'ready', apiPath: '/sandbox/v1', features: ['accounts'], accounts: [] });
    expect(await enabled).toMatchObject({ name: 'opalite' });
    expect(() => injectOpalite({ opaliteUrl: 'not a url' })).toThrow(OpaliteConnectError);
  });
});
