// One signature, one account: a signed mint submitted with its signer spelled five ways (SS58
// with prefix 42, 255 and 7391, lower- and upper-case hex public key) is included exactly once:
// one token, one fee, one status, one nonce step; with a confirmed sponsor, the sponsor pays once.
// Real Build → sign (sr25519) → Submit over HTTP against the Node host.
import { u8aToHex } from '@polkadot/util';
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../../server/host';
import { startTestHost } from '../support';
import { ALICE, BOB, account, api, buildAndSign, createCollection, custodial, type Answer, type Signed } from './kit';

let running: RunningHost;
let host: { origin: string; basePath: string };

beforeAll(async () => {
  running = await startTestHost();
  const url = new URL(running.url);
  host = { origin: url.origin, basePath: url.pathname };
});
afterAll(() => running?.stop());

/** Every spelling of one account a client might send. */
function spellings(address: string): Record<string, string> {
  const key = decodeAddress(address);
  const hex = u8aToHex(key);
  return {
    'SS58 prefix 42': encodeAddress(key, 42),
    'SS58 prefix 255 (Quartz)': encodeAddress(key, 255),
    'SS58 prefix 7391 (Unique)': encodeAddress(key, 7391),
    'lower-case hex key': hex.toLowerCase(),
    'upper-case hex key': `0x${hex.slice(2).toUpperCase()}`
  };
}

const freeBalance = async (address: string): Promise<bigint> => {
  const res = await api(host, 'GET', `/balance?address=${address}`);
  expect(res.status).toBe(200);
  return BigInt(res.json.freeBalance.raw);
};
const nonceOf = async (address: string): Promise<number> => (await api(host, 'GET', `/common/nonce?address=${address}`)).json.nonce;
const lastTokenId = async (collectionId: number): Promise<number> => (await api(host, 'GET', `/collections/last-token-id?collectionId=${collectionId}`)).json.tokenId ?? 0;
const tokensOf = async (collectionId: number): Promise<number[]> => (await api(host, 'GET', `/collections/tokens?collectionId=${collectionId}`)).json.ids;

/** The same signed payload with only the way its signer is written changed. */
function respelled(signed: Signed, address: string): Signed {
  return { signerPayloadJSON: { ...signed.signerPayloadJSON, address }, signature: signed.signature };
}

/** Submit through both doors a client has: /extrinsic/submit and the route's own use=Submit. */
function submitVia(door: number, body: Signed): Promise<Answer> {
  return door % 2 === 0 ? api(host, 'POST', '/extrinsic/submit', body) : api(host, 'POST', '/tokens?use=Submit', body);
}

/** Every answer is a 201 with the one hash, or a 4xx refusal in the envelope; never a second extrinsic. */
function expectOneHash(answers: { spelling: string; res: Answer }[]): string {
  const hashes = new Set<string>();
  for (const { spelling, res } of answers) {
    const context = `${spelling}: ${res.status} ${res.text.slice(0, 300)}`;
    if (res.status === 201) hashes.add(res.json.hash);
    else {
      expect(res.status, context).toBeGreaterThanOrEqual(400);
      expect(res.status, context).toBeLessThan(500);
      expect(res.json?.error?.code, context).toMatch(/^UN\d{5}$/);
    }
  }
  expect(hashes.size, `hashes answered: ${[...hashes].join(', ')}`).toBe(1);
  return [...hashes][0];
}

async function expectIncludedOnce(hash: string, signer: string) {
  const status = await api(host, 'GET', `/extrinsic/status?hash=${hash}`);
  expect(status.status).toBe(200);
  expect(status.json).toMatchObject({ isCompleted: true, isError: false });
  const list = await api(host, 'GET', `/extrinsic/list?address=${signer}&limit=500`);
  expect(list.json.extrinsics.filter((x: { hash: string }) => x.hash === hash), 'status records of the hash').toHaveLength(1);
  return status.json;
}

interface Case {
  name: string;
  sponsored: boolean;
  /** Submit all spellings at once while blocks wait (manual mode), then seal one block. */
  pooled: boolean;
}

const CASES: Case[] = [
  { name: 'one after another, no sponsor', sponsored: false, pooled: false },
  { name: 'all at once into one block, no sponsor', sponsored: false, pooled: true },
  { name: 'one after another, with a confirmed sponsor', sponsored: true, pooled: false },
  { name: 'all at once into one block, with a confirmed sponsor', sponsored: true, pooled: true }
];

describe('one signature, many accounts: a respelled signer is one account', () => {
  it.each(CASES.map((c, i) => ({ ...c, index: i })))('a signed mint sent with its signer spelled five ways is included once: $name', async ({ sponsored, pooled, index }) => {
    // A fresh signer, funded, whose first extrinsic this is (nonce 0): every spelling of it would
    // pass a nonce check keyed by the spelling. It mints as an admin of Alice's collection.
    const uri = `//Replay${index}`;
    const signer = account(uri).address;
    await custodial(host, 'POST', '/balance/transfer', { address: ALICE, destination: signer, amount: '1000' });
    // A sponsor timeout of 0 lets the sponsor pay every sponsored mint, so each extra inclusion would show in its balance.
    const collectionId = await createCollection(host, { adminList: [signer], ...(sponsored ? { sponsorship: { address: BOB }, limits: { sponsorTransferTimeout: 0 } } : {}) });
    if (sponsored) {
      await custodial(host, 'POST', '/collections/sponsorship/confirm', { address: BOB, collectionId }, '//Bob');
      const collection = await api(host, 'GET', `/collections?collectionId=${collectionId}`);
      expect(collection.json.sponsorship).toMatchObject({ isConfirmed: true });
    }
    const signed = await buildAndSign(host, 'POST', '/tokens', { address: signer, collectionId, data: {} }, uri);
    expect(signed.signerPayloadJSON.nonce).toMatch(/^0x0+$/);

    const before = { signer: await freeBalance(signer), bob: await freeBalance(BOB), nonce: await nonceOf(signer), last: await lastTokenId(collectionId) };
    if (pooled) expect((await api(host, 'POST', '/dev/block-mode', { kind: 'manual' })).status).toBe(201);
    const answers: { spelling: string; res: Answer }[] = [];
    try {
      const variants = Object.entries(spellings(signer));
      if (pooled) {
        const all = await Promise.all(variants.map(([, address], i) => submitVia(i, respelled(signed, address))));
        variants.forEach(([spelling], i) => answers.push({ spelling, res: all[i] }));
        expect((await api(host, 'POST', '/dev/blocks/seal', {})).status).toBe(201);
      } else {
        for (const [i, [spelling, address]] of variants.entries()) answers.push({ spelling, res: await submitVia(i, respelled(signed, address)) });
      }
    } finally {
      if (pooled) await api(host, 'POST', '/dev/block-mode', { kind: 'instant' });
    }

    const hash = expectOneHash(answers);
    const status = await expectIncludedOnce(hash, signer);
    const fee = BigInt(status.fee.raw);
    expect(fee).toBeGreaterThan(0n);
    expect(await tokensOf(collectionId), 'tokens of the collection').toEqual([before.last + 1]);
    expect(await lastTokenId(collectionId)).toBe(before.last + 1);
    expect(await nonceOf(signer), 'the signer’s nonce advanced once').toBe(before.nonce + 1);
    for (const spelling of Object.values(spellings(signer))) expect(await nonceOf(spelling), `nonce read as ${spelling}`).toBe(before.nonce + 1);
    if (sponsored) {
      expect(await freeBalance(signer), 'the signer pays nothing').toBe(before.signer);
      expect(before.bob - (await freeBalance(BOB)), 'the sponsor pays one fee').toBe(fee);
    } else {
      expect(before.signer - (await freeBalance(signer)), 'the signer pays one fee').toBe(fee);
      expect(await freeBalance(BOB)).toBe(before.bob);
    }
  });

  it('the pool holds one entry per account however the signer is written', async () => {
    // Two different payloads with the same nonce from one account: only one may wait for a block.
    const collectionId = await createCollection(host);
    const first = await buildAndSign(host, 'POST', '/tokens', { address: ALICE, collectionId, data: {} });
    const second = await buildAndSign(host, 'POST', '/tokens', { address: ALICE, collectionId, owner: BOB, data: {} });
    expect(second.signerPayloadJSON.nonce).toBe(first.signerPayloadJSON.nonce);
    expect((await api(host, 'POST', '/dev/block-mode', { kind: 'manual' })).status).toBe(201);
    let answers: Answer[];
    try {
      answers = [await api(host, 'POST', '/extrinsic/submit', first), await api(host, 'POST', '/extrinsic/submit', respelled(second, spellings(ALICE)['upper-case hex key']))];
      expect((await api(host, 'POST', '/dev/blocks/seal', {})).status).toBe(201);
    } finally {
      await api(host, 'POST', '/dev/block-mode', { kind: 'instant' });
    }
    expect(answers[0].status).toBe(201);
    // The second is refused at submit, or accepted and then refused at inclusion: either way one token.
    expect(await tokensOf(collectionId)).toHaveLength(1);
  });
});
