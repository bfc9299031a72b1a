// GET /extrinsic (the SDK's extrinsic.get): an extrinsic of a block named by its hash or number.
import { describe, expect, it } from 'vitest';
import { ALICE, BOB, openApi } from './route-test-kit';

describe('GET /extrinsic', () => {
  it('answers section, method, events, arguments in the call’s order, nonce and signer, by block number or hash', async () => {
    const api = await openApi();
    const { hash } = (await api.request('POST', '/v1/balance/transfer?use=SubmitWatch', { address: ALICE, destination: BOB, amount: 2 }, '//Alice')).json;
    const status = (await api.get(`/v1/extrinsic/status?hash=${hash}`)).json;
    const expected = {
      section: 'balances',
      method: 'transferKeepAlive',
      events: status.events,
      args: [BOB, '2000000000000000000'],
      nonce: 0,
      signer: ALICE
    };
    expect((await api.get(`/v1/extrinsic?blockHashOrNumber=${status.block.header.number}&extrinsicHash=${hash}`)).json).toEqual(expected);
    expect((await api.get(`/extrinsic?blockHashOrNumber=${status.blockHash}&extrinsicHash=${hash.toUpperCase().replace('0X', '0x')}`)).json).toEqual(expected);
    expect(expected.events.map((e: { method: string }) => e.method)).toContain('ExtrinsicSuccess');
  });

  it('answers 404 for a block it does not have or an extrinsic not in that block, 400 for a bad query', async () => {
    const api = await openApi();
    const { hash } = (await api.request('POST', '/v1/balance/transfer?use=SubmitWatch', { address: ALICE, destination: BOB, amount: 1 }, '//Alice')).json;
    const other = `0x${'ab'.repeat(32)}`;
    const noBlock = await api.get(`/v1/extrinsic?blockHashOrNumber=999&extrinsicHash=${hash}`);
    expect(noBlock.status).toBe(404);
    expect(noBlock.json.error).toMatchObject({ name: 'BlockNotFoundError', message: 'No block 999 in this ledger' });
    const missing = await api.get(`/v1/extrinsic?blockHashOrNumber=0&extrinsicHash=${hash}`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.message).toBe(`No extrinsic with hash ${hash} in block 0`);
    expect((await api.get(`/v1/extrinsic?blockHashOrNumber=1&extrinsicHash=${other}`)).status).toBe(404);
    for (const bad of ['blockHashOrNumber=-1&extrinsicHash=' + hash, 'blockHashOrNumber=abc&extrinsicHash=' + hash, 'blockHashOrNumber=1&extrinsicHash=0x12', `extrinsicHash=${hash}`]) {
      expect((await api.get(`/v1/extrinsic?${bad}`)).json.error).toMatchObject({ name: 'ValidationError' });
    }
  });
});
