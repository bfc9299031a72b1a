// The waiting pool of the Node host: bounded by what an account can pay (a clear 4xx beyond, and
// every accepted one included), statuses that survive a crash, and concurrent custodial
// submissions from one account (1,000, 16 in flight × 4 clients) all included with gapless nonces.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHost } from '../../../server/host';
import { toUnits } from '../../../src/lib/api/fee';
import { startChildHost, tempDirectory } from './child-host';
import { exportedLedger, ledgerViolations } from './invariants';
import { devSigners, request, signPayload } from './signed-writes';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const temp = tempDirectory('opalite-pool-');
afterAll(() => temp.remove());

const seed = (uri: string) => ({ authorization: `Seed ${uri}` });

describe('the waiting pool', () => {
  it('accepts only what an account can pay, refuses the rest with a clear 4xx, and includes every accepted one', { timeout: 120_000 }, async () => {
    const host = await startHost({ port: 0, dataFile: join(temp.dir, 'bounded.sqlite'), blockMode: { kind: 'manual' }, log: () => {} });
    try {
      const [poor] = await devSigners(['//PoolPoor']);
      const transfer = { address: poor.address, destination: BOB, amount: '0' };
      const fee = await request(`${host.url}/balance/transfer?use=GetFee`, 'POST', transfer);
      expect(fee.status).toBe(201);
      // Enough for about nine fees of these transfers.
      const funding = (BigInt(fee.json.fee.raw) * 95n) / 10n;
      expect((await request(`${host.url}/balance/transfer?use=Submit`, 'POST', { address: ALICE, destination: poor.address, amount: toUnits(funding, 18) }, seed('//Alice'))).status).toBe(201);
      expect((await request(`${host.url}/dev/blocks/seal`, 'POST')).status).toBe(201);

      const accepted: string[] = [];
      const refused: { status: number; message: string }[] = [];
      for (let i = 0; i < 30; i++) {
        const answer = await request(`${host.url}/balance/transfer?use=Submit`, 'POST', transfer, seed('//PoolPoor'));
        if (answer.status === 201) accepted.push(answer.json.hash);
        else refused.push({ status: answer.status, message: answer.json?.error?.message ?? JSON.stringify(answer.json) });
      }
      // Nine fit (the tenth fee would pass the balance); the rest are refused, each saying why.
      expect(accepted.length).toBeGreaterThanOrEqual(8);
      expect(accepted.length).toBeLessThanOrEqual(9);
      expect(refused).toHaveLength(30 - accepted.length);
      for (const r of refused) {
        expect(r.status).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
        expect(r.message).toMatch(/fee|balance|pay/i);
      }
      for (const hash of accepted) expect((await request(`${host.url}/extrinsic/status?hash=${hash}`, 'GET')).json.status).toBe('Ready');

      expect((await request(`${host.url}/dev/blocks/seal`, 'POST')).status).toBe(201);
      for (const hash of accepted) {
        const status = await request(`${host.url}/extrinsic/status?hash=${hash}`, 'GET');
        expect({ hash, status: status.json.status }).toEqual({ hash, status: 'InBlock' });
      }
      expect((await request(`${host.url}/common/nonce?address=${poor.address}`, 'GET')).json.nonce).toBe(accepted.length);
      expect(ledgerViolations(await exportedLedger(host.url))).toEqual([]);
    } finally {
      await host.stop();
    }
  });

  it('keeps waiting extrinsics Ready across a crash, then includes them when a block is sealed, and the next nonce follows them', { timeout: 120_000 }, async () => {
    const data = join(temp.dir, 'restart.sqlite');
    const [alice, bob] = await devSigners(['//Alice', '//Bob']);
    const EACH = 8;
    let host = await startChildHost({ data, blocks: 'manual' });
    const hashes: string[] = [];
    try {
      // Custodial ones from Alice, client-signed ones from Bob: all waiting (manual blocks).
      for (let i = 0; i < EACH; i++) {
        const custodial = await request(`${host.url}/balance/transfer?use=Submit`, 'POST', { address: ALICE, destination: BOB, amount: '1' }, seed('//Alice'));
        expect(custodial.status).toBe(201);
        hashes.push(custodial.json.hash);
        const built = await request(`${host.url}/balance/transfer?use=Build`, 'POST', { address: bob.address, destination: ALICE, amount: '2' });
        const signed = await request(`${host.url}/extrinsic/submit`, 'POST', { signerPayloadJSON: built.json.signerPayloadJSON, signature: signPayload(bob.pair, built.json.signerPayloadHex) });
        expect(signed.status).toBe(201);
        hashes.push(signed.json.hash);
      }
      for (const hash of hashes) expect((await request(`${host.url}/extrinsic/status?hash=${hash}`, 'GET')).json.status).toBe('Ready');

      await host.crash();
      host = await startChildHost({ data, blocks: 'manual' });
      for (const hash of hashes) {
        const status = await request(`${host.url}/extrinsic/status?hash=${hash}`, 'GET');
        expect({ hash, code: status.status, status: status.json.status }).toEqual({ hash, code: 200, status: 'Ready' });
      }
      // Waiting extrinsics count in the next nonce after a restart too.
      expect((await request(`${host.url}/common/nonce?address=${ALICE}`, 'GET')).json.nonce).toBe(EACH);

      expect((await request(`${host.url}/dev/blocks/seal`, 'POST')).status).toBe(201);
      for (const hash of hashes) expect((await request(`${host.url}/extrinsic/status?hash=${hash}`, 'GET')).json.status).toBe('InBlock');
      expect(ledgerViolations(await exportedLedger(host.url))).toEqual([]);
      // After the block that included them (loaded from the store, in whatever order), the next
      // nonce is the one after the last, and a payload built now is accepted.
      for (const address of [alice.address, bob.address]) expect({ address, nonce: (await request(`${host.url}/common/nonce?address=${address}`, 'GET')).json.nonce }).toEqual({ address, nonce: EACH });
      const built = await request(`${host.url}/balance/transfer?use=Build`, 'POST', { address: alice.address, destination: BOB, amount: '3' });
      const next = await request(`${host.url}/extrinsic/submit`, 'POST', { signerPayloadJSON: built.json.signerPayloadJSON, signature: signPayload(alice.pair, built.json.signerPayloadHex) });
      expect(next.status, JSON.stringify(next.json)).toBe(201);
    } finally {
      await host.stop();
    }
  });

  it('includes 1,000 concurrent custodial transfers of one account (16 in flight × 4 clients) with gapless nonces', { timeout: 360_000 }, async () => {
    const host = await startChildHost({ data: join(temp.dir, 'concurrent.sqlite') });
    try {
      const CLIENTS = 4;
      const PER_CLIENT = 250;
      const IN_FLIGHT = 16;
      const answers: { status: number; json: any }[] = [];
      const client = async () => {
        let next = 0;
        await Promise.all(
          Array.from({ length: IN_FLIGHT }, async () => {
            while (next < PER_CLIENT) {
              next++;
              answers.push(await request(`${host.url}/balance/transfer?use=Submit`, 'POST', { address: ALICE, destination: BOB, amount: '0.001' }, seed('//Alice')));
            }
          })
        );
      };
      await Promise.all(Array.from({ length: CLIENTS }, client));

      const refused = answers.filter((a) => a.status !== 201);
      expect(refused.length, `refused: ${refused.slice(0, 3).map((a) => `${a.status} ${JSON.stringify(a.json).slice(0, 200)}`).join('; ')}`).toBe(0);
      const hashes = new Set(answers.map((a) => a.json.hash));
      expect(hashes.size).toBe(CLIENTS * PER_CLIENT);

      const dump = await exportedLedger(host.url);
      expect(ledgerViolations(dump)).toEqual([]);
      const included = dump.extrinsics.filter((x) => hashes.has(x.hash));
      expect(included.filter((x) => x.status === 'InBlock')).toHaveLength(CLIENTS * PER_CLIENT);
      const nonces = dump.extrinsics.filter((x) => x.signer === ALICE && x.blockNumber !== null).map((x) => x.nonce).sort((a, b) => a - b);
      expect(nonces).toEqual(nonces.map((_, i) => i));
      expect(dump.accounts.find((a) => a.address === ALICE)?.nonce).toBe(nonces.length);
    } finally {
      await host.stop();
    }
  });
});
