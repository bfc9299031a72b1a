import { describe, expect, it } from 'vitest';
import { LedgerHost } from '../../host/ledger-host';
import { MemoryStore } from '../../ledger/testing/memory-store';
import { devRoutes } from './dev';
import { ALICE, BOB } from './route-test-kit';

const BASE = 'http://127.0.0.1/sandbox/v1';

async function host(impersonate?: boolean) {
  const h = await LedgerHost.open({ kind: 'node', store: new MemoryStore(), impersonate, routes: (x) => devRoutes(x) });
  const call = async (method: string, path: string, body?: unknown, authorization?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) };
    const response = await h.handle(new Request(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    return { status: response.status, body: await response.json() };
  };
  return { h, call };
}

const transfer = { address: BOB, destination: ALICE, amount: 1 };
const asBob = `Impersonate ${BOB}`;

describe('impersonation', () => {
  it('signs as the address without its key: use=Result, and use=Sign then /extrinsic/submit with the same header', async () => {
    const { call } = await host(true);
    const result = await call('POST', '/balance/transfer?use=Result', transfer, asBob);
    expect([result.status, result.body.isError]).toEqual([201, false]);
    expect((await call('GET', `/extrinsic/status?hash=${result.body.hash}`)).body.impersonated).toBe(true);

    const signed = await call('POST', '/balance/transfer?use=Sign', transfer, asBob);
    expect(signed.body.signature).toBe('0x01' + '00'.repeat(64));
    const submitted = await call('POST', '/extrinsic/submit', signed.body, asBob);
    expect(submitted.status).toBe(201);
    const status = await call('GET', `/extrinsic/status?hash=${submitted.body.hash}`);
    expect(status.body).toMatchObject({ status: 'InBlock', isError: false, impersonated: true });
    expect((await call('GET', `/common/nonce?address=${BOB}`)).body.nonce).toBe(2);

    // The same "signature" without the header is an invalid signature; a custodial Seed extrinsic is not marked.
    const again = await call('POST', '/balance/transfer?use=Sign', transfer, asBob);
    expect((await call('POST', '/extrinsic/submit', again.body)).status).toBe(400);
    const seeded = await call('POST', '/balance/transfer?use=Result', transfer, 'Seed //Bob');
    expect((await call('GET', `/extrinsic/status?hash=${seeded.body.hash}`)).body.impersonated).toBeUndefined();
  });

  it('signs only as the address it names, and not at all when off (403)', async () => {
    const on = await host(true);
    expect((await on.call('POST', '/balance/transfer?use=Result', transfer, `Impersonate ${ALICE}`)).status).toBe(400);
    expect((await on.call('POST', '/balance/transfer?use=Result', transfer, 'Impersonate nobody')).status).toBe(400);
    const off = await host();
    const refused = await off.call('POST', '/balance/transfer?use=Result', transfer, asBob);
    expect([refused.status, refused.body.error.name]).toEqual([403, 'ImpersonationRefusedError']);
    await off.call('POST', '/dev/impersonation', { enabled: true });
    expect((await off.call('POST', '/balance/transfer?use=Result', transfer, asBob)).status).toBe(201);
  });

  it('cannot be switched on over HTTP when the host was started refusing it (--no-impersonate)', async () => {
    const refusing = await host(false);
    const switched = await refusing.call('POST', '/dev/impersonation', { enabled: true });
    expect([switched.status, switched.body.error.name]).toEqual([403, 'ImpersonationRefusedError']);
    expect(switched.body.error.message).toMatch(/--no-impersonate/);
    expect((await refusing.call('POST', '/balance/transfer?use=Result', transfer, asBob)).status).toBe(403);
    // Switching it off stays allowed.
    expect((await refusing.call('POST', '/dev/impersonation', { enabled: false })).body).toEqual({ impersonate: false });
  });
});

describe('dev controls', () => {
  it('set-balance writes a block of its own that a revert takes back; seal makes empty blocks', async () => {
    const { call } = await host(false);
    const snapshot = (await call('POST', '/dev/snapshot', {})).body;
    const set = await call('POST', '/dev/set-balance', { address: BOB, amount: '3.5' });
    expect([set.status, set.body.freeBalance?.amount]).toEqual([201, '3.5']);
    expect((await call('GET', `/balance?address=${BOB}`)).body.freeBalance.amount).toBe('3.5');
    const sealed = await call('POST', '/dev/seal', { count: 5 });
    expect(sealed.body.block.number).toBe(set.body.block.number + 5);
    expect((await call('POST', '/dev/seal', { count: 1001 })).status).toBe(400);
    expect((await call('POST', '/dev/set-balance', { address: BOB, amount: '-1' })).status).toBe(400);
    await call('POST', '/dev/revert', { snapshotId: snapshot.snapshotId });
    expect((await call('GET', `/balance?address=${BOB}`)).body.freeBalance.amount).toBe('1000000');
  });

  it('block mode: interval blocks without ms, or with ms that is not whole, say so', async () => {
    const { call } = await host(false);
    for (const [body, message] of [
      [{ kind: 'interval' }, 'interval blocks need ms, a whole number of milliseconds'],
      [{ kind: 'interval', ms: 'soon' }, 'interval blocks need ms, a whole number of milliseconds'],
      [{ kind: 'interval', ms: 250.5 }, 'ms must be a whole number of milliseconds'],
      [{ kind: 'interval', ms: 1 }, 'ms must be at least']
    ] as const) {
      const refused = await call('POST', '/dev/block-mode', body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain(message);
    }
    expect((await call('POST', '/dev/block-mode', { kind: 'interval', ms: '500' })).body).toEqual({ blockMode: { kind: 'interval', ms: 500 } });
    await call('POST', '/dev/block-mode', { kind: 'instant' });
  });
});
