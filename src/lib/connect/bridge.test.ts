// The /connect window's message handling, with every port faked: the opener and other windows,
// consents in a memory storage, a wallet, and a sign dialog the test decides for (one that
// ignores the abort signal too, so the bridge's own last check is what keeps a signature in).
import { describe, expect, it, vi } from 'vitest';
import { ConnectBridge, type BridgeMessageEvent, type BridgePorts, type SignOptions, type WalletAccount } from './bridge.svelte';
import { AppConsents, CONSENT_KEY } from './consent';
import { memoryStorage } from './testing/memory-storage';
import { BRIDGE_FEATURES, MAX_IN_FLIGHT } from './protocol';

const OPALITE = 'http://127.0.0.1:4173';
const APP = 'http://localhost:5173';
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ALICE_KEY = '0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
/** Alice in the Kusama prefix: the same account. */
const ALICE_KUSAMA = 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const GENESIS = `0x${'ab'.repeat(32)}`;
const SIGNATURE = `0x01${'cd'.repeat(64)}`;

const payloadOf = (address: string) => ({ address, blockHash: GENESIS, blockNumber: '0x00000001', era: '0x00', genesisHash: GENESIS, method: '0x0000', nonce: '0x00000000', signedExtensions: [], specVersion: '0x00000001', tip: '0x00000000000000000000000000000000', transactionVersion: '0x00000001', version: 4 });

interface Deferred {
  resolve(signature: string): void;
  reject(error: unknown): void;
  options: SignOptions;
  origin: string;
  subject: unknown;
}

/** A bridge over fake ports; `deliver` hands it a message event as the browser would. */
function setUp({ opener = true, wallet = [{ address: ALICE, name: 'Alice', type: 'sr25519' }, { address: BOB, name: 'Bob', type: 'sr25519' }] as WalletAccount[] } = {}) {
  const posted: { message: any; targetOrigin: string }[] = [];
  const openerWindow = { postMessage: (message: unknown, options: WindowPostMessageOptions) => void posted.push({ message, targetOrigin: options.targetOrigin ?? '/' }) };
  const storage = memoryStorage();
  const clock = { now: Date.UTC(2025, 0, 1) };
  const consents = new AppConsents(storage, () => clock.now);
  const listeners: { message?: (event: BridgeMessageEvent) => void; hide?: () => void; shown?: () => void; consents?: () => void; wallet?: () => void } = {};
  const signs: Deferred[] = [];
  const host = { closed: 0, focused: 0 };
  let accounts = wallet;
  const ledgerRequests: Request[] = [];
  let answerLedger: (request: Request) => Promise<Response> = async () => Response.json({ ok: true });
  const ask = (origin: string, subject: unknown, options: SignOptions) =>
    new Promise<string>((resolve, reject) => void signs.push({ resolve, reject, options, origin, subject }));
  const ports: BridgePorts = {
    host: {
      opener: opener ? openerWindow : null,
      listen(onMessage, onHide, onShown) {
        listeners.message = onMessage;
        listeners.hide = onHide;
        listeners.shown = onShown;
        return () => {
          listeners.message = listeners.hide = listeners.shown = undefined;
        };
      },
      focus: () => void host.focused++,
      close: () => void host.closed++
    },
    consents,
    watchConsents(onChange) {
      listeners.consents = onChange;
      return () => (listeners.consents = undefined);
    },
    wallet: {
      list: async () => accounts.map((account) => ({ ...account })),
      subscribe(onChange) {
        listeners.wallet = onChange;
        return () => (listeners.wallet = undefined);
      }
    },
    signer: {
      signPayload: (origin, payload, options) => ask(origin, payload, options),
      signRaw: (origin, raw, options) => ask(origin, raw, options),
      failureOf: (error) => ({ reason: 'cancelled', message: String((error as Error).message) })
    },
    fetchLedger: (request) => {
      ledgerRequests.push(request);
      return answerLedger(request);
    },
    origin: OPALITE,
    genesisHash: async () => GENESIS
  };
  const bridge = new ConnectBridge(ports);
  const stop = bridge.start();
  const deliver = (data: unknown, from: { source?: unknown; origin?: string } = {}) =>
    listeners.message?.({ source: 'source' in from ? from.source : openerWindow, origin: from.origin ?? APP, data });
  /** Lets every pending promise of the bridge settle (all the fakes answer at once). */
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((done) => setTimeout(done, 0));
  };
  const messages = (type?: string) => posted.map((entry) => entry.message).filter((message) => !type || message.type === type);
  return {
    bridge,
    stop,
    posted,
    messages,
    deliver,
    settle,
    consents,
    storage,
    clock,
    signs,
    host,
    ledgerRequests,
    openerWindow,
    setLedger: (answer: typeof answerLedger) => (answerLedger = answer),
    /** Another window changed the consents (the storage event). */
    consentsChangedElsewhere: () => listeners.consents?.(),
    hide: () => listeners.hide?.(),
    /** The person comes back to the window. */
    shown: () => listeners.shown?.(),
    setWallet(next: WalletAccount[]) {
      accounts = next;
      listeners.wallet?.();
    },
    /** Another tab changed the wallet: this window's wallet says nothing. */
    setWalletElsewhere(next: WalletAccount[]) {
      accounts = next;
    }
  };
}

/** A bridge connected to APP, which shared `shared`. */
async function connected(shared: string[] = [ALICE]) {
  const t = setUp();
  t.consents.allow(APP, shared);
  t.deliver({ v: 1, type: 'hello' });
  await t.settle();
  expect(t.bridge.phase).toBe('connected');
  return t;
}

const request = (id: number, path = '/sandbox/v1/common/chain-properties') => ({ v: 1, type: 'request', id, method: 'GET', path, headers: [], body: null });
const sign = (id: number, address = ALICE) => ({ v: 1, type: 'sign', id, payload: payloadOf(address) });

describe('who the window listens to', () => {
  it('tells the opener it listens, and answers nobody when no app opened it', async () => {
    const t = setUp();
    expect(t.posted).toEqual([{ message: { v: 1, type: 'loaded' }, targetOrigin: '*' }]);
    const alone = setUp({ opener: false });
    expect(alone.bridge.phase).toBe('no-opener');
    alone.deliver({ v: 1, type: 'hello' });
    expect(alone.posted).toEqual([]);
  });

  it('ignores a window that is not its opener, even of the same origin, before and after consent', async () => {
    const t = setUp();
    const stranger = { postMessage: vi.fn() };
    t.deliver({ v: 1, type: 'hello' }, { source: stranger });
    t.deliver(request(7), { source: stranger });
    await t.settle();
    expect(t.bridge.phase).toBe('waiting');
    expect(t.bridge.origin).toBeNull();

    t.consents.allow(APP, [ALICE]);
    t.deliver({ v: 1, type: 'hello' });
    await t.settle();
    t.deliver(request(8), { source: stranger });
    t.deliver(sign(9), { source: stranger });
    t.deliver({ v: 1, type: 'bye' }, { source: stranger });
    await t.settle();
    expect(t.messages().map((m) => m.type)).toEqual(['loaded', 'ready']);
    expect(t.signs).toHaveLength(0);
    expect(t.ledgerRequests).toHaveLength(0);
    expect(t.bridge.phase).toBe('connected');
    expect(stranger.postMessage).not.toHaveBeenCalled();
  });

  it('serves only the origin of the first hello: a second origin (the opener navigated) is ignored', async () => {
    const t = await connected();
    t.deliver({ v: 1, type: 'hello' }, { origin: 'https://evil.example' });
    t.deliver(request(3), { origin: 'https://evil.example' });
    t.deliver(sign(4), { origin: 'https://evil.example' });
    await t.settle();
    expect(t.bridge.origin).toBe(APP);
    expect(t.messages().map((m) => m.type)).toEqual(['loaded', 'ready']);
    expect(t.posted.filter((entry) => entry.message.type !== 'loaded').every((entry) => entry.targetOrigin === APP)).toBe(true);
    expect(t.signs).toHaveLength(0);
  });

  it('refuses plain http on the network and opaque origins, saying why, and remembers nothing', async () => {
    for (const origin of ['http://192.168.1.20:8080', 'null']) {
      const t = setUp();
      t.deliver({ v: 1, type: 'hello' }, { origin });
      expect(t.bridge.phase).toBe('unsupported');
      expect(t.messages('refused')).toEqual([{ v: 1, type: 'refused', reason: 'unsupported-origin', message: expect.stringMatching(/Only https pages, and http pages on this computer|plain http on the network/) }]);
      expect(t.bridge.unsupported).toMatch(origin === 'null' ? /no origin Opalite could remember/ : /plain http on the network/);
      expect(t.storage.getItem(CONSENT_KEY)).toBeNull();
    }
  });
});

describe('consent and the accounts an app sees', () => {
  it('asks an unknown origin; Allow shares the chosen accounts of the wallet, and ready tells them', async () => {
    const t = setUp();
    t.deliver({ v: 1, type: 'hello', appName: 'Shop' });
    await t.settle();
    expect(t.bridge.phase).toBe('asking');
    expect(t.bridge.appName).toBe('Shop');
    expect(t.bridge.walletAccounts.map((a) => a.address)).toEqual([ALICE, BOB]);
    expect(t.messages('ready')).toEqual([]);

    t.bridge.allow([BOB, 'not-in-the-wallet']);
    await t.settle();
    expect(t.consents.get(APP)?.accounts).toEqual([BOB]);
    expect(t.messages('ready')).toEqual([
      { v: 1, type: 'ready', apiPath: '/sandbox/v1', accounts: [{ address: BOB, name: 'Bob', type: 'sr25519', genesisHash: GENESIS }], features: BRIDGE_FEATURES }
    ]);
  });

  it('Deny refuses and remembers nothing', async () => {
    const t = setUp();
    t.deliver({ v: 1, type: 'hello' });
    t.bridge.deny();
    expect(t.messages('refused')).toEqual([{ v: 1, type: 'refused', reason: 'denied', message: 'The person denied access to the Opalite sandbox' }]);
    expect(t.consents.list()).toEqual([]);
  });

  it('connects an allowed origin at once, and a lapsed one is asked again', async () => {
    const t = await connected([]);
    expect(t.messages('ready')[0].accounts).toEqual([]);
    const later = setUp();
    later.consents.allow(APP, [ALICE]);
    later.clock.now += 30 * 24 * 60 * 60 * 1000;
    later.deliver({ v: 1, type: 'hello' });
    await later.settle();
    expect(later.bridge.phase).toBe('asking');
  });

  it('tells the app the whole list when the person shares others, renames or removes one; an unchanged list is not told again', async () => {
    const t = await connected([ALICE]);
    t.bridge.share([ALICE, BOB]);
    await t.settle();
    expect(t.messages('accounts')).toEqual([{ v: 1, type: 'accounts', accounts: [expect.objectContaining({ address: ALICE }), expect.objectContaining({ address: BOB })] }]);

    // The Network page, in another window.
    t.consents.share(APP, [BOB]);
    t.consentsChangedElsewhere();
    await t.settle();
    t.consentsChangedElsewhere(); // a use written by another window: nothing new
    await t.settle();
    t.setWallet([{ address: ALICE, name: 'Alice', type: 'sr25519' }, { address: BOB, name: 'Bob (work)', type: 'sr25519' }]);
    await t.settle();
    t.setWallet([{ address: ALICE, name: 'Alice', type: 'sr25519' }]);
    await t.settle();
    expect(t.messages('accounts').map((m) => m.accounts.map((a: { name: string }) => a.name))).toEqual([['Alice', 'Bob'], ['Bob'], ['Bob (work)'], []]);
  });

  it('reads the wallet again when an account made in another tab is shared there, or when the person comes back', async () => {
    const t = setUp({ wallet: [{ address: ALICE, name: 'Alice', type: 'sr25519' }] });
    t.consents.allow(APP, [ALICE]);
    t.deliver({ v: 1, type: 'hello' });
    await t.settle();
    t.setWalletElsewhere([{ address: ALICE, name: 'Alice', type: 'sr25519' }, { address: BOB, name: 'Bob', type: 'sr25519' }]);
    t.consents.share(APP, [ALICE, BOB]);
    t.consentsChangedElsewhere();
    await t.settle();
    expect(t.messages('accounts').at(-1).accounts.map((a: { name: string }) => a.name)).toEqual(['Alice', 'Bob']);
    t.setWalletElsewhere([{ address: ALICE, name: 'Alice', type: 'sr25519' }, { address: BOB, name: 'Bob, renamed', type: 'sr25519' }]);
    t.shown();
    await t.settle();
    expect(t.bridge.walletAccounts.map((a) => a.name)).toEqual(['Alice', 'Bob, renamed']);
    expect(t.messages('accounts').at(-1).accounts.map((a: { name: string }) => a.name)).toEqual(['Alice', 'Bob, renamed']);
  });

  it('revoking here or elsewhere refuses the next request (403) and tells the app once', async () => {
    const t = await connected();
    t.consents.revoke(APP); // the Network page; this window has not heard yet
    t.deliver(request(5));
    await t.settle();
    const response = t.messages('response')[0];
    expect(response).toMatchObject({ id: 5, status: 403 });
    expect(JSON.parse(new TextDecoder().decode(response.body)).error.message).toBe(`${APP} is not allowed to use this Opalite sandbox: connect again and allow it in Opalite`);
    expect(t.messages('refused')).toEqual([{ v: 1, type: 'refused', reason: 'revoked', message: 'Access to the Opalite sandbox was revoked' }]);
    expect(t.bridge.phase).toBe('revoked');
    expect(t.ledgerRequests).toHaveLength(0);
  });
});

describe('requests', () => {
  it('relays an allowed request to its own origin and records the use at most once a minute', async () => {
    const t = await connected();
    const writes = t.storage.writes;
    t.deliver(request(1));
    await t.settle();
    expect(t.ledgerRequests.map((r) => r.url)).toEqual([`${OPALITE}/sandbox/v1/common/chain-properties`]);
    expect(t.messages('response')).toEqual([expect.objectContaining({ id: 1, status: 200 })]);
    t.clock.now += 61_000;
    t.deliver(request(2));
    t.deliver(request(3));
    await t.settle();
    expect(t.storage.writes).toBe(writes + 1);
    expect(t.consents.get(APP)?.lastUsedAt).toBe(t.clock.now);
  });

  it('answers a request whose answer came after the revocation with 403, not with what was read', async () => {
    const t = await connected();
    let answer!: (response: Response) => void;
    t.setLedger(() => new Promise((done) => (answer = done)));
    t.deliver(request(1));
    await t.settle();
    t.consents.revoke(APP);
    answer(Response.json({ secret: 1 }));
    await t.settle();
    expect(t.messages('response')).toEqual([expect.objectContaining({ id: 1, status: 403 })]);
  });

  it('answers a bad field with the error envelope, and bounds the requests in flight', async () => {
    const t = await connected();
    t.deliver({ ...request(1), method: 'TRACE' });
    await t.settle();
    expect(t.messages('response')).toEqual([expect.objectContaining({ id: 1, status: 400 })]);
    t.setLedger(() => new Promise(() => {}));
    for (let id = 10; id < 10 + MAX_IN_FLIGHT + 1; id++) t.deliver(request(id));
    await t.settle();
    expect(t.messages('response').map((m) => [m.id, m.status])).toEqual([
      [1, 400],
      [10 + MAX_IN_FLIGHT, 429]
    ]);
  });
});

describe('signatures', () => {
  it('asks the dialog for a shared account (however spelled) with the shared accounts, and posts the signature', async () => {
    const t = await connected([ALICE]);
    for (const [id, address] of [
      [1, ALICE],
      [2, ALICE_KEY],
      [3, ALICE_KUSAMA]
    ] as const) {
      t.deliver(sign(id, address));
      await t.settle();
      const open = t.signs.at(-1)!;
      expect(open).toMatchObject({ origin: APP, subject: payloadOf(address), options: { accounts: [ALICE] } });
      open.resolve(SIGNATURE);
      await t.settle();
      expect(t.messages('signed').at(-1)).toEqual({ v: 1, type: 'signed', id, signature: SIGNATURE });
    }
    t.deliver({ v: 1, type: 'sign-raw', id: 9, raw: { address: ALICE, data: 'hello' } });
    await t.settle();
    expect(t.signs.at(-1)?.subject).toEqual({ address: ALICE, data: 'hello' });
    t.signs.at(-1)!.resolve(SIGNATURE);
    await t.settle();
    expect(t.messages('signed').at(-1)).toMatchObject({ id: 9 });
    expect(t.host.focused).toBe(4);
  });

  it('refuses, before any dialog, an account not shared, a sign after revocation, and a malformed payload', async () => {
    const t = await connected([ALICE]);
    t.deliver(sign(1, BOB));
    t.deliver({ v: 1, type: 'sign-raw', id: 2, raw: { address: BOB, data: 'hi' } });
    t.deliver({ v: 1, type: 'sign', id: 3, payload: 'x' });
    await t.settle();
    t.bridge.revoke();
    t.deliver(sign(4, ALICE));
    await t.settle();
    expect(t.signs).toHaveLength(0);
    expect(t.messages('sign-failed').map((m) => [m.id, m.reason, m.message])).toEqual([
      [1, 'refused', `${BOB} is not an account the person shared with ${APP}: they can share it in the Opalite window`],
      [2, 'refused', `${BOB} is not an account the person shared with ${APP}: they can share it in the Opalite window`],
      [3, 'invalid', expect.stringMatching(/payload must be a signer payload object/)],
      [4, 'refused', `${APP} is not allowed to use this Opalite sandbox: connect again and allow it in Opalite`]
    ]);
  });

  it('passes on why the dialog did not sign', async () => {
    const t = await connected();
    t.deliver(sign(1));
    await t.settle();
    t.signs[0].reject(new Error('The person cancelled'));
    await t.settle();
    expect(t.messages('sign-failed')).toEqual([{ v: 1, type: 'sign-failed', id: 1, reason: 'cancelled', message: 'The person cancelled' }]);
  });

  // Each way access ends while the dialog is open; the fake dialog then signs anyway (as one that
  // missed the abort would): the bridge must withdraw it and post no signature.
  const endings: [string, (t: Awaited<ReturnType<typeof connected>>) => void][] = [
    ['the person revokes in this window', (t) => t.bridge.revoke()],
    [
      'the person revokes on the Network page',
      (t) => {
        t.consents.revoke(APP);
        t.consentsChangedElsewhere();
      }
    ],
    [
      'the person stops sharing the account',
      (t) => {
        t.consents.share(APP, [BOB]);
        t.consentsChangedElsewhere();
      }
    ],
    ['the app says bye', (t) => t.deliver({ v: 1, type: 'bye' })],
    ['the window goes away', (t) => t.hide()],
    ['the person disconnects', (t) => t.bridge.disconnect()],
    ['the account leaves the wallet', (t) => t.setWallet([{ address: BOB, name: 'Bob', type: 'sr25519' }])]
  ];
  for (const [name, end] of endings) {
    it(`withdraws an open dialog when ${name}, and posts no signature`, async () => {
      const t = await connected([ALICE, BOB]);
      t.deliver(sign(1));
      await t.settle();
      const open = t.signs[0];
      expect(open.options.signal.aborted).toBe(false);
      end(t);
      await t.settle();
      if (name !== 'the account leaves the wallet') expect(open.options.signal.aborted).toBe(true);
      open.resolve(SIGNATURE);
      await t.settle();
      expect(t.messages('signed')).toEqual([]);
      expect(JSON.stringify(t.posted)).not.toContain(SIGNATURE.slice(4));
    });
  }

  it('keeps a signature that resolves after a revocation it was never told of (checked right before posting)', async () => {
    const t = await connected();
    t.deliver(sign(1));
    await t.settle();
    t.consents.revoke(APP); // no storage event reaches this window
    t.signs[0].resolve(SIGNATURE);
    await t.settle();
    expect(t.messages('signed')).toEqual([]);
    expect(t.messages('sign-failed')).toEqual([expect.objectContaining({ id: 1, reason: 'refused' })]);
  });

  it('withdraws only the dialogs of the account no longer shared', async () => {
    const t = await connected([ALICE, BOB]);
    t.deliver(sign(1, ALICE));
    await t.settle();
    t.consents.share(APP, [ALICE]);
    t.consentsChangedElsewhere();
    await t.settle();
    expect(t.signs[0].options.signal.aborted).toBe(false);
    t.signs[0].resolve(SIGNATURE);
    await t.settle();
    expect(t.messages('signed')).toEqual([{ v: 1, type: 'signed', id: 1, signature: SIGNATURE }]);
  });
});

describe('the end of the connection', () => {
  it('tells the app once that the window is closing, and closes it on Disconnect', async () => {
    const t = await connected();
    t.bridge.disconnect();
    t.hide();
    t.stop();
    expect(t.messages('closed')).toEqual([{ v: 1, type: 'closed' }]);
    expect(t.host.closed).toBe(1);
  });

  it('after bye, requests are refused', async () => {
    const t = await connected();
    t.deliver({ v: 1, type: 'bye' });
    t.deliver(request(2));
    await t.settle();
    expect(t.bridge.phase).toBe('closed');
    expect(t.messages('response')).toEqual([expect.objectContaining({ id: 2, status: 403 })]);
    expect(t.ledgerRequests).toHaveLength(0);
  });
});
