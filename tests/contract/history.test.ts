// History over HTTP against the Node host (SQLite): every read route at an earlier block answers
// byte for byte what it answered when that block was the head, through raw HTTP and through the real
// @unique-nft/sdk client's `at`; snapshots and revert; a revert while clients submit leaves every
// hash with a definite status; `at` and `snapshotId` are bounded and checked before any work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, CHARLIE, custodial, http, sdkFor, startTestHost } from './support';

let host: RunningHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.stop());

async function raw(path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(host.url + path);
  return { status: response.status, text: await response.text() };
}

const ok = async (method: string, path: string, body: unknown, uri = '//Alice') => {
  const answer = await custodial(host, method, path, body, uri);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  expect(answer.body.isError, JSON.stringify(answer.body.error)).toBe(false);
  return answer.body;
};

const head = async () => (await http(host, 'GET', '/../dev/status')).body.head as { number: number; hash: string };

describe('reads at a block', () => {
  let nft: number;
  let ft: number;
  let rft: number;
  let reads: string[];
  let then: Map<string, { status: number; text: string }>;
  let at: string;

  beforeAll(async () => {
    nft = (await ok('POST', '/collections', { address: ALICE, name: 'Cats', description: 'c', tokenPrefix: 'CAT', permissions: { nesting: { tokenOwner: true } } })).parsed.collectionId;
    await ok('POST', '/collections/properties', { address: ALICE, collectionId: nft, properties: [{ key: 'a', value: '1' }] });
    await ok('POST', '/tokens', { address: ALICE, collectionId: nft, data: { name: { _: 'one' } } });
    await ok('POST', '/tokens', { address: ALICE, collectionId: nft, owner: BOB });
    await ok('POST', '/collections/admins', { address: ALICE, collectionId: nft, newAdmin: CHARLIE });
    ft = (await ok('POST', '/fungible/collection', { address: ALICE, name: 'Coin', description: 'c', tokenPrefix: 'COIN', decimals: 6 })).parsed.collectionId;
    await ok('POST', '/fungible/tokens', { address: ALICE, collectionId: ft, amount: 1000, recipient: ALICE });
    rft = (await ok('POST', '/refungible/collection', { address: ALICE, name: 'Part', description: 'p', tokenPrefix: 'PRT' })).parsed.collectionId;
    await ok('POST', '/refungible/tokens', { address: ALICE, collectionId: rft, amount: 100 });
    at = (await head()).hash;
    reads = [
      `/collections?collectionId=${nft}`,
      `/collections/properties?collectionId=${nft}`,
      `/collections/limits?collectionId=${nft}`,
      `/collections/property-permissions?collectionId=${nft}`,
      `/collections/admins?collectionId=${nft}`,
      `/collections/tokens?collectionId=${nft}`,
      `/collections/last-token-id?collectionId=${nft}`,
      `/collections/total-supply?collectionId=${nft}`,
      `/collections/allow-list?collectionId=${nft}`,
      `/collections/allowed?collectionId=${nft}&account=${BOB}`,
      `/collections/stats`,
      `/collections/list`,
      `/collections/v2?collectionId=${nft}`,
      `/tokens?collectionId=${nft}&tokenId=1`,
      `/tokens?collectionId=${nft}&tokenId=2`,
      `/tokens/v2?collectionId=${nft}&tokenId=1`,
      `/tokens/properties?collectionId=${nft}&tokenId=1`,
      `/tokens/exists?collectionId=${nft}&tokenId=3`,
      `/tokens/owner?collectionId=${nft}&tokenId=2`,
      `/tokens/children?collectionId=${nft}&tokenId=1`,
      `/tokens/parent?collectionId=${nft}&tokenId=2`,
      `/tokens/topmost-owner?collectionId=${nft}&tokenId=2`,
      `/tokens/is-bundle?collectionId=${nft}&tokenId=1`,
      `/tokens/get-bundle?collectionId=${nft}&tokenId=1`,
      `/tokens/account-tokens?collectionId=${nft}&address=${BOB}`,
      `/tokens/allowance?collectionId=${nft}&tokenId=1&from=${ALICE}&to=${BOB}`,
      `/tokens/balance?collectionId=${nft}&tokenId=2&address=${BOB}`,
      `/balance?address=${ALICE}`,
      `/balance?address=${BOB}`,
      `/common/nonce?address=${ALICE}`,
      `/fungible/collection?collectionId=${ft}`,
      `/fungible/balance?collectionId=${ft}&address=${ALICE}`,
      `/fungible/total-pieces?collectionId=${ft}`,
      `/refungible/tokens/balance?collectionId=${rft}&tokenId=1&address=${ALICE}`,
      `/refungible/tokens/total-pieces?collectionId=${rft}&tokenId=1`,
      `/refungible/tokens/account-tokens?collectionId=${rft}&address=${ALICE}`,
      `/collections/next-sponsored?collectionId=${nft}&address=${ALICE}&tokenId=1`,
      `/query/query/system/number`
    ];
    then = new Map();
    for (const path of reads) then.set(path, await raw(path));
    // Change what every one of those reads answers.
    await ok('POST', '/collections/properties', { address: ALICE, collectionId: nft, properties: [{ key: 'a', value: '2' }, { key: 'b', value: '3' }] });
    await ok('PATCH', '/tokens/transfer', { address: BOB, collectionId: nft, tokenId: 2, to: ALICE }, '//Bob');
    await ok('PATCH', '/tokens/transfer', { address: ALICE, collectionId: nft, tokenId: 2, to: `0xf8238ccfff8ed887463fd5e0${nft.toString(16).padStart(8, '0')}00000001` });
    await ok('POST', '/tokens', { address: ALICE, collectionId: nft, owner: BOB });
    await ok('POST', '/collections/add-to-allow-list', { address: ALICE, collectionId: nft, newAdminId: BOB });
    await ok('POST', '/tokens/approve', { address: ALICE, collectionId: nft, tokenId: 1, spender: BOB });
    await ok('POST', '/balance/transfer', { address: ALICE, destination: BOB, amount: 5 });
    await ok('POST', '/fungible/tokens/transfer', { address: ALICE, collectionId: ft, recipient: BOB, amount: 10 });
    await ok('POST', '/refungible/tokens/transfer', { address: ALICE, collectionId: rft, tokenId: 1, to: BOB, amount: 10 });
    await ok('POST', '/collections', { address: BOB, name: 'Later', description: 'l', tokenPrefix: 'L' }, '//Bob');
  });

  it('every read answers byte for byte what it answered then', async () => {
    let changed = 0;
    for (const path of reads) {
      const before = then.get(path)!;
      const now = await raw(path);
      if (now.text !== before.text) changed++;
      const sep = path.includes('?') ? '&' : '?';
      const past = await raw(`${path}${sep}at=${at}`);
      expect({ path, status: past.status, text: past.text }).toEqual({ path, status: before.status, text: before.text });
    }
    // The test means something only if most reads answer differently at the head now.
    expect(changed).toBeGreaterThan(reads.length / 2);
  });

  it('the real client reads at a block with `at` (and `blockHashAt` on topmost owner)', async () => {
    const sdk = sdkFor(host);
    const collection = await sdk.collection.get({ collectionId: nft, at } as never);
    expect(collection).toEqual(JSON.parse(then.get(`/collections?collectionId=${nft}`)!.text));
    const token = await sdk.token.get({ collectionId: nft, tokenId: 2, at } as never);
    expect(token).toEqual(JSON.parse(then.get(`/tokens?collectionId=${nft}&tokenId=2`)!.text));
    const balance = await sdk.balance.get({ address: BOB, at } as never);
    expect(balance).toEqual(JSON.parse(then.get(`/balance?address=${BOB}`)!.text));
    const topmost = await sdk.token.topmostOwner({ collectionId: nft, tokenId: 2, blockHashAt: at } as never);
    expect(topmost).toEqual(JSON.parse(then.get(`/tokens/topmost-owner?collectionId=${nft}&tokenId=2`)!.text));
  });

  it('refuses a hash that is not a block of this ledger, and a malformed or huge one before any work', async () => {
    const path = `/collections?collectionId=${nft}`;
    const unknown = await http(host, 'GET', `${path}&at=0x${'12'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.name).toBe('BlockNotFoundError');
    for (const bad of ['latest', '0x12', `0x${'zz'.repeat(32)}`, `0x${'1'.repeat(5000)}`]) {
      const answer = await http(host, 'GET', `${path}&at=${bad}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.message.length).toBeLessThan(300);
    }
    const twice = await http(host, 'GET', `${path}&at=${at}&at=${at}`);
    expect(twice.status).toBe(400);
    const disagree = await http(host, 'GET', `${path}&at=${at}&blockHashAt=0x${'34'.repeat(32)}`);
    expect(disagree.status).toBe(400);
  });

  it('answers what an included extrinsic changed', async () => {
    const sent = await ok('POST', '/balance/transfer', { address: ALICE, destination: CHARLIE, amount: 2 });
    const answer = await http(host, 'GET', `/extrinsic/changes?hash=${sent.hash}`);
    expect(answer.status).toBe(200);
    const charlie = answer.body.changes.find((c: { kind: string; address?: string }) => c.kind === 'balance' && c.address === CHARLIE);
    expect(BigInt(charlie.after) - BigInt(charlie.before)).toBe(2n * 10n ** 18n);
    expect((await http(host, 'GET', `/extrinsic/changes?hash=0x${'00'.repeat(32)}`)).status).toBe(404);
    expect((await http(host, 'GET', '/extrinsic/changes?hash=nope')).status).toBe(400);
  });
});

describe('snapshots and revert', () => {
  it('a revert while clients submit leaves every hash with a definite status', async () => {
    const snapshot = (await http(host, 'POST', '/../dev/snapshot', {})).body;
    expect(snapshot.snapshotId).toMatch(/^\d+$/);
    const submits = Array.from({ length: 40 }, (_, i) =>
      http(host, 'POST', '/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount: 1 + i }, { authorization: 'Seed //Alice' })
    );
    const revert = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return http(host, 'POST', '/../dev/revert', { snapshotId: snapshot.snapshotId });
    })();
    const answers = await Promise.all(submits);
    expect((await revert).status).toBe(200);
    const hashes = answers.filter((a) => a.status === 201).map((a) => a.body.hash as string);
    for (const answer of answers) if (answer.status !== 201) expect(answer.body.error.message).toBeTruthy();
    for (const hash of hashes) {
      const status = (await http(host, 'GET', `/extrinsic/status?hash=${hash}`)).body;
      // In a block that stands (after the revert), or refused for the revert: never waiting forever, never unknown.
      expect(['InBlock', 'Invalid']).toContain(status.status);
      expect(status.isCompleted).toBe(true);
      if (status.status === 'Invalid') expect(['Reverted', 'Stale', 'Future']).toContain(status.error.details.name);
    }
  });

  it('manual blocks: what waits at the revert is refused as Reverted, what comes after goes into the next block', async () => {
    const manual = await startTestHost({ blockMode: { kind: 'manual' } });
    try {
      const call = (path: string, body: unknown, headers: Record<string, string> = {}) => http(manual, 'POST', path, body, headers);
      const snapshot = (await call('/../dev/snapshot', {})).body;
      const before = await Promise.all(Array.from({ length: 10 }, (_, i) => call('/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount: 1 + i }, { authorization: 'Seed //Alice' })));
      const [revert, ...after] = await Promise.all([
        call('/../dev/revert', { snapshotId: snapshot.snapshotId }),
        ...Array.from({ length: 10 }, (_, i) => call('/balance/transfer?use=Submit', { address: BOB, destination: ALICE, amount: 1 + i }, { authorization: 'Seed //Bob' }))
      ]);
      expect(revert.status).toBe(200);
      await call('/../dev/blocks/seal', {});
      const statusOf = async (hash: string) => (await http(manual, 'GET', `/extrinsic/status?hash=${hash}`)).body;
      for (const answer of before) {
        expect(answer.status).toBe(201);
        const status = await statusOf(answer.body.hash);
        // Waiting when the revert came, or admitted against the state before it: refused, with why.
        expect(status).toMatchObject({ status: 'Invalid', isCompleted: true });
        expect(['Reverted', 'Stale', 'Future']).toContain(status.error.details.name);
      }
      const waitedOrIncluded = await Promise.all(after.filter((a) => a.status === 201).map((a) => statusOf(a.body.hash)));
      for (const status of waitedOrIncluded) {
        expect(status.isCompleted).toBe(true);
        expect(['InBlock', 'Invalid']).toContain(status.status);
      }
    } finally {
      await manual.stop();
    }
  });

  it('refuses a revert to an unknown snapshot, and bounds and checks the body before any work', async () => {
    expect((await http(host, 'POST', '/../dev/revert', { snapshotId: '424242' })).status).toBe(404);
    const huge = await http(host, 'POST', '/../dev/revert', { snapshotId: '9'.repeat(100_000) });
    expect(huge.status).toBe(400);
    expect(huge.body.error.message.length).toBeLessThan(300);
    expect((await http(host, 'POST', '/../dev/revert', { snapshotId: { $gt: '' } })).status).toBe(400);
    expect((await http(host, 'POST', '/../dev/revert', { blockHash: 'x' })).status).toBe(400);
  });
});

describe("an account's history and holdings (Opalite extensions) on SQLite", () => {
  it('lists what the account received and holds, and forgets what a revert takes back', async () => {
    const coin = (await ok('POST', '/fungible/collection', { address: ALICE, name: 'Shell', description: 's', tokenPrefix: 'SHL', decimals: 3 })).parsed.collectionId;
    await ok('POST', '/fungible/tokens', { address: ALICE, collectionId: coin, amount: 2.5, recipient: CHARLIE });
    const entries = async () => (await http(host, 'GET', `/explorer/account-history?address=${CHARLIE}&limit=100`)).body.entries as { items: { kind: string; collectionId?: number; amount: string }[] }[];
    const before = await entries();
    expect(before[0].items).toEqual([{ kind: 'minted', collectionId: coin, tokenId: 0, counterparty: ALICE, amount: '2500' }]);
    const holdings = (await http(host, 'GET', `/tokens/holdings?address=${CHARLIE}&kind=fungible`)).body.holdings;
    expect(holdings.find((h: { collectionId: number }) => h.collectionId === coin)).toMatchObject({ amount: '2500', collection: { decimals: 3, tokenPrefix: 'SHL' } });

    const snapshot = (await http(host, 'POST', '/../dev/snapshot', {})).body;
    await ok('POST', '/balance/transfer', { address: ALICE, destination: CHARLIE, amount: 3 });
    expect(await entries()).toHaveLength(before.length + 1);
    expect((await http(host, 'POST', '/../dev/revert', { snapshotId: snapshot.snapshotId })).status).toBe(200);
    expect(await entries()).toEqual(before);
  });
});
