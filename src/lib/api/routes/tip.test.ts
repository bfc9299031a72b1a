// A payload's tip: the ledger charges it with the fee, as the chain's ChargeTransactionPayment
// does, and quotes it in every fee; Opalite's own signing paths sign no payload with a tip, which
// no dialog shows (the signing rule).
import { describe, expect, it } from 'vitest';
import { pairFromSeed, signMessage } from '../../codec/signature';
import { ALICE, BOB, openApi } from './route-test-kit';

const TIP = 10n ** 17n;
const tipHex = (tip: bigint) => `0x${tip.toString(16).padStart(32, '0')}`;

async function tippedTransfer(api: Awaited<ReturnType<typeof openApi>>, tip: bigint) {
  const built = await api.request('POST', '/v1/balance/transfer?use=Build', { address: ALICE, destination: BOB, amount: 1 });
  expect(built.status).toBe(201);
  const plainFee = BigInt((await api.request('POST', '/v1/extrinsic/calculate-fee', { signerPayloadJSON: built.json.signerPayloadJSON })).json.raw);
  const json = { ...built.json.signerPayloadJSON, tip: tipHex(tip) };
  return { json, plainFee, signature: signMessage(pairFromSeed('//Alice'), api.ledger.signingMessage(json)) };
}

describe('a tip', () => {
  it('is quoted with the fee (calculate-fee) and charged with it at inclusion', async () => {
    const api = await openApi();
    const { json, plainFee, signature } = await tippedTransfer(api, TIP);
    const quoted = BigInt((await api.request('POST', '/v1/extrinsic/calculate-fee', { signerPayloadJSON: json })).json.raw);
    // One more byte of length for the tip's compact encoding, priced as any byte.
    expect(quoted - TIP).toBeGreaterThanOrEqual(plainFee);
    expect(quoted - TIP - plainFee).toBeLessThan(plainFee / 10n);
    const before = BigInt((await api.get(`/v1/balance?address=${ALICE}`)).json.freeBalance.raw);
    const submitted = await api.request('POST', '/v1/extrinsic/submit', { signerPayloadJSON: json, signature });
    expect(submitted.status).toBe(201);
    const status = (await api.get(`/v1/extrinsic/status?hash=${submitted.json.hash}`)).json;
    expect(status.isError).toBe(false);
    const after = BigInt((await api.get(`/v1/balance?address=${ALICE}`)).json.freeBalance.raw);
    expect(before - after).toBe(10n ** 18n + quoted);
  });

  it('that the signer cannot pay is refused at submit, nothing charged', async () => {
    const api = await openApi();
    const { json, signature } = await tippedTransfer(api, (1n << 128n) - 1n);
    const refused = await api.request('POST', '/v1/extrinsic/submit', { signerPayloadJSON: json, signature });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/Inability to pay some fees/);
    expect((await api.get(`/v1/common/nonce?address=${ALICE}`)).json.nonce).toBe(0);
  });

  it('is never signed by Opalite: /extrinsic/sign and use=Sign refuse a tipped payload', async () => {
    const api = await openApi();
    const { json } = await tippedTransfer(api, 1n);
    const refused = await api.request('POST', '/v1/extrinsic/sign', { signerPayloadJSON: json }, '//Alice');
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/carries a tip of 1 \(smallest units\), paid beyond the fee: nothing with a tip is signed/);
    // The dry run answers what the sign dialog would sign: the same refusal.
    const dry = await api.request('POST', '/v1/extrinsic/dry-run', { signerPayloadJSON: json });
    expect([dry.status, dry.json.error.details]).toEqual([400, { reason: 'tip' }]);
  });
});
