// Issue 18, the Node part: an Opalite host (unique rules) filled through the REST API and the real
// SDK is forked by a second host. Every read answers on the fork as on the source at the fork
// block; writes stay on the fork (the source's export is unchanged); impersonation, set-balance
// and seal; ids continue; the source stopped leaves copied data served and the rest answered 502;
// a restart over the same database fetches nothing; a fork of itself is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../../server/host';
import { ALICE, BOB, CHARLIE, custodial, http, rawRequest, sdkFor, startTestHost } from './support';

const dir = mkdtempSync(join(tmpdir(), 'opalite-fork-'));
const DAVE = '5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy';

let source: RunningHost;
let fork: RunningHost | undefined;
let forkBlock: { number: number; hash: string };
const ids = { nft: 0, ft: 0, rft: 0, parent: 0, child: 0, grandchild: 0, plain: 0, untouched: 0, rftToken: 0, measured: 0, lone: 0 };
/** Every request the source answered (its request log). */
const sourceLog: string[] = [];

async function ok(host: RunningHost, method: string, path: string, body: unknown, uri = '//Alice') {
  const answer = await custodial(host, method, path, body, uri);
  if (answer.status >= 400 || answer.body.isError) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
  return answer.body.parsed;
}

/** The answer with each host's own origin (image urls, /ipfs) written the same. */
async function read(host: RunningHost, path: string, at?: string) {
  const answer = await http(host, 'GET', at ? `${path}${path.includes('?') ? '&' : '?'}at=${at}` : path);
  return { status: answer.status, body: JSON.parse(JSON.stringify(answer.body ?? null).replaceAll(new URL(host.url).origin, 'ORIGIN')) };
}

/** The state tables of an export (its time of export left out). */
async function exported(host: RunningHost): Promise<unknown> {
  const answer = await fetch(`${host.url}/dev/export`);
  const snapshot = JSON.parse(await answer.text());
  return snapshot.tables;
}

beforeAll(async () => {
  source = await startTestHost({ rules: 'unique', log: (line) => sourceLog.push(line) });
  const alice = sdkFor(source, '//Alice');
  // Collections of the three modes, through the real SDK and the REST API.
  const nft = await alice.collection.create.submitWaitResult({
    address: ALICE,
    name: 'Source NFT',
    description: 'forked',
    tokenPrefix: 'SRC',
    limits: { accountTokenOwnershipLimit: 50, sponsorTransferTimeout: 3 },
    permissions: { access: 'Normal', mintMode: true, nesting: { tokenOwner: true, collectionAdmin: true } },
    properties: [{ key: 'note', value: 'from the source' }],
    tokenPropertyPermissions: [{ key: 'name', permission: { mutable: true, collectionAdmin: true, tokenOwner: true } }]
  });
  ids.nft = nft.parsed!.collectionId;
  await ok(source, 'POST', '/collections/admins', { address: ALICE, collectionId: ids.nft, newAdmin: BOB });
  await ok(source, 'POST', '/collections/add-to-allow-list', { address: ALICE, collectionId: ids.nft, newAdminId: CHARLIE });
  await ok(source, 'POST', '/collections/sponsorship', { address: ALICE, collectionId: ids.nft, newSponsor: BOB });
  await ok(source, 'POST', '/collections/sponsorship/confirm', { address: BOB, collectionId: ids.nft }, '//Bob');
  ids.parent = (await ok(source, 'POST', '/tokens', { address: ALICE, collectionId: ids.nft, properties: [{ key: 'name', value: 'parent' }] })).tokenId;
  ids.child = (await ok(source, 'POST', '/tokens', { address: ALICE, collectionId: ids.nft, properties: [{ key: 'name', value: 'child' }] })).tokenId;
  ids.grandchild = (await ok(source, 'POST', '/tokens', { address: ALICE, collectionId: ids.nft })).tokenId;
  ids.plain = (await ok(source, 'POST', '/tokens', { address: ALICE, collectionId: ids.nft, owner: BOB })).tokenId;
  ids.untouched = (await ok(source, 'POST', '/tokens', { address: ALICE, collectionId: ids.nft, owner: CHARLIE })).tokenId;
  ids.measured = (await ok(source, 'POST', '/tokens', { address: ALICE, collectionId: ids.nft, owner: CHARLIE })).tokenId;
  ids.lone = (await ok(source, 'POST', '/collections', { address: ALICE, name: 'Lone', description: 'one token', tokenPrefix: 'L' })).collectionId;
  await ok(source, 'POST', '/tokens', { address: ALICE, collectionId: ids.lone });
  await ok(source, 'POST', '/tokens/nest', { address: ALICE, parent: { collectionId: ids.nft, tokenId: ids.parent }, nested: { collectionId: ids.nft, tokenId: ids.child } });
  await ok(source, 'POST', '/tokens/nest', { address: ALICE, parent: { collectionId: ids.nft, tokenId: ids.child }, nested: { collectionId: ids.nft, tokenId: ids.grandchild } });
  ids.ft = (await ok(source, 'POST', '/fungible/collection', { address: ALICE, name: 'Coin', description: 'ft', tokenPrefix: 'CN', decimals: 2 })).collectionId;
  await ok(source, 'POST', '/fungible/tokens', { address: ALICE, collectionId: ids.ft, recipient: BOB, amount: 25 });
  ids.rft = (await ok(source, 'POST', '/refungible/collection', { address: ALICE, name: 'Pieces', description: 'rft', tokenPrefix: 'PC' })).collectionId;
  ids.rftToken = (await ok(source, 'POST', '/refungible/tokens', { address: ALICE, collectionId: ids.rft, amount: 100 })).tokenId;

  fork = await startTestHost({ fork: source.url, dataFile: join(dir, 'fork.db') });
  const origin = (await http(fork, 'GET', '/common/chain-properties')).body.fork;
  forkBlock = { number: origin.blockNumber, hash: origin.blockHash };
  // The source goes on after the fork block: the fork must not see it.
  await ok(source, 'PATCH', '/tokens/transfer', { address: BOB, collectionId: ids.nft, tokenId: ids.plain, to: DAVE }, '//Bob');
}, 60_000);

afterAll(async () => {
  await fork?.stop();
  await source.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a fork of an Opalite host', () => {
  it('is a chain of its own that names its source and block', async () => {
    const [own, theirs, status] = await Promise.all([http(fork!, 'GET', '/common/chain-properties'), http(source, 'GET', '/common/chain-properties'), http(fork!, 'GET', '/dev/status')]);
    expect(own.body.genesisHash).not.toBe(theirs.body.genesisHash);
    expect(own.body.fork).toMatchObject({ source: source.url, blockHash: forkBlock.hash, sourceGenesisHash: theirs.body.genesisHash });
    expect(own.body.rules).toBe('unique');
    expect(status.body).toMatchObject({ impersonate: true, fork: { source: source.url, blockHash: forkBlock.hash, unpinned: [] } });
  });

  it('answers every read as the source answers it at the fork block', async () => {
    const c = ids.nft;
    const token = (t: number) => `collectionId=${c}&tokenId=${t}`;
    const paths = [
      `/collections?collectionId=${c}`,
      `/collections/limits?collectionId=${c}`,
      `/collections/properties?collectionId=${c}`,
      `/collections/property-permissions?collectionId=${c}`,
      `/collections/admins?collectionId=${c}`,
      `/collections/allow-list?collectionId=${c}`,
      `/collections/allowed?collectionId=${c}&address=${CHARLIE}`,
      `/collections/tokens?collectionId=${c}`,
      `/collections/last-token-id?collectionId=${c}`,
      `/collections/total-supply?collectionId=${c}`,
      `/collections/stats`,
      ...[ids.parent, ids.child, ids.grandchild, ids.plain].flatMap((t) => [
        `/tokens?${token(t)}`,
        `/tokens/properties?${token(t)}`,
        `/tokens/children?${token(t)}`,
        `/tokens/parent?${token(t)}`,
        `/tokens/topmost-owner?${token(t)}`,
        `/tokens/is-bundle?${token(t)}`,
        `/tokens/get-bundle?${token(t)}`,
        `/tokens/owner?${token(t)}`,
        `/tokens/exists?${token(t)}`
      ]),
      `/tokens/account-tokens?address=${BOB}&collectionId=${c}`,
      `/tokens/account-tokens?address=${ALICE}&collectionId=${c}`,
      `/tokens?collectionId=${c}&tokenId=99`,
      `/collections?collectionId=999`,
      `/balance?address=${BOB}`,
      `/common/nonce?address=${BOB}`,
      `/fungible/balance?collectionId=${ids.ft}&address=${BOB}`,
      `/fungible/total-pieces?collectionId=${ids.ft}`,
      `/refungible/tokens/balance?collectionId=${ids.rft}&tokenId=${ids.rftToken}&address=${ALICE}`,
      `/refungible/tokens/total-pieces?collectionId=${ids.rft}&tokenId=${ids.rftToken}`,
      `/refungible/tokens/account-tokens?collectionId=${ids.rft}&address=${ALICE}`
    ];
    for (const path of paths) {
      const [mine, theirs] = await Promise.all([read(fork!, path), read(source, path, forkBlock.hash)]);
      expect([path, mine]).toEqual([path, theirs]);
    }
    // The real SDK reads the same through the fork.
    const [viaFork, viaSource] = await Promise.all([sdkFor(fork!).token.getBundle({ collectionId: c, tokenId: ids.grandchild }), sdkFor(source).token.getBundle({ collectionId: c, tokenId: ids.grandchild, at: forkBlock.hash } as never)]);
    expect(JSON.stringify(viaFork).replaceAll(new URL(fork!.url).origin, 'O')).toBe(JSON.stringify(viaSource).replaceAll(new URL(source.url).origin, 'O'));
  });

  it('asks the source at most 3 times for the first read of a token, and never again', async () => {
    const asked = async (path: string) => {
      const before = sourceLog.length;
      expect((await http(fork!, 'GET', path)).status).toBe(200);
      return sourceLog.slice(before).filter((line) => line.startsWith('GET'));
    };
    const first = await asked(`/tokens?collectionId=${ids.lone}&tokenId=1`);
    expect(first.length).toBeLessThanOrEqual(3); // the token, its collection, its children
    expect(first.every((line) => line.includes(`at=`) || line.includes('/dev/status'))).toBe(true);
    expect(await asked(`/tokens?collectionId=${ids.lone}&tokenId=1`)).toEqual([]);
    // Readers of one key at once share one request.
    const before = sourceLog.length;
    await Promise.all(Array.from({ length: 8 }, () => http(fork!, 'GET', `/tokens/owner?collectionId=${ids.nft}&tokenId=${ids.measured}`)));
    expect(sourceLog.slice(before).filter((line) => line.includes(`tokenId=${ids.measured}`))).toHaveLength(1);
  });

  it('writes on the fork only; ids continue from the source; impersonation acts as the source collection owner', async () => {
    const before = await exported(source);
    const bob = sdkFor(fork!, '//Bob');
    const transfer = await bob.token.transfer.submitWaitResult({ address: BOB, collectionId: ids.nft, tokenId: ids.plain, to: CHARLIE });
    expect(transfer.parsed).toMatchObject({ to: CHARLIE });
    const created = await ok(fork!, 'POST', '/collections', { address: BOB, name: 'On the fork', description: 'local', tokenPrefix: 'LOC' }, '//Bob');
    const stats = (await http(source, 'GET', `/collections/stats?at=${forkBlock.hash}`)).body;
    expect(created.collectionId).toBe(stats.created + 1);

    // Impersonating the owner: no key, a 403 nowhere, the limits change on the fork only.
    const setLimits = await http(fork!, 'POST', '/collections/set-limits?use=Result', { address: ALICE, collectionId: ids.nft, limits: { accountTokenOwnershipLimit: 7 } }, { authorization: `Impersonate ${ALICE}` });
    expect(setLimits.status).toBe(201);
    expect(setLimits.body.isError).toBe(false);
    const status = await http(fork!, 'GET', `/extrinsic/status?hash=${setLimits.body.hash}`);
    expect(status.body.impersonated).toBe(true);
    expect((await http(fork!, 'GET', `/collections/limits?collectionId=${ids.nft}`)).body.limits.accountTokenOwnershipLimit).toBe(7);
    expect((await http(source, 'GET', `/collections/limits?collectionId=${ids.nft}`)).body.limits.accountTokenOwnershipLimit).toBe(50);
    const mismatch = await http(fork!, 'POST', '/collections/set-limits?use=Result', { address: ALICE, collectionId: ids.nft, limits: {} }, { authorization: `Impersonate ${BOB}` });
    expect(mismatch.status).toBe(400);

    // Dev controls: set a balance, seal empty blocks.
    await http(fork!, 'POST', '/dev/set-balance', { address: DAVE, amount: '12.5' });
    expect((await http(fork!, 'GET', `/balance?address=${DAVE}`)).body.freeBalance.amount).toBe('12.5');
    const head = (await http(fork!, 'GET', '/dev/status')).body.head.number;
    const sealed = await http(fork!, 'POST', '/dev/seal', { count: 3 });
    expect(sealed.body.block.number).toBe(head + 3);

    expect(await exported(source)).toEqual(before);
  });

  it('refuses impersonation when it is off, and on a base url of another machine', async () => {
    await http(fork!, 'POST', '/dev/impersonation', { enabled: false });
    const off = await http(fork!, 'POST', '/balance/transfer?use=Result', { address: BOB, destination: ALICE, amount: 1 }, { authorization: `Impersonate ${BOB}` });
    expect(off.status).toBe(403);
    expect(off.body.error.name).toBe('ImpersonationRefusedError');
    await http(fork!, 'POST', '/dev/impersonation', { enabled: true });
    const remote = await startTestHost({ allowHosts: ['sandbox.example'] });
    try {
      await http(remote, 'POST', '/dev/impersonation', { enabled: true });
      const answer = await rawRequest(remote, {
        method: 'POST',
        path: '/balance/transfer?use=Result',
        headers: { host: `sandbox.example:${new URL(remote.url).port}`, 'content-type': 'application/json', authorization: `Impersonate ${BOB}` },
        body: JSON.stringify({ address: BOB, destination: ALICE, amount: 1 })
      });
      expect(answer.status).toBe(403);
      expect(answer.json.error.message).toMatch(/remote base url/);
    } finally {
      await remote.stop();
    }
  });

  it('forks a fork, and refuses a fork of itself', async () => {
    const second = await startTestHost({ fork: fork!.url });
    try {
      const owner = await http(second, 'GET', `/tokens/owner?collectionId=${ids.nft}&tokenId=${ids.plain}`);
      expect(owner.body.owner).toBe(CHARLIE); // the first fork's transfer
    } finally {
      await second.stop();
    }
    const port = 40_000 + Math.floor(Math.random() * 10_000);
    await expect(startTestHost({ port, fork: `http://127.0.0.1:${port}/sandbox/v1` })).rejects.toThrow(/it is this host itself/);
  });

  it('serves what it copied with the source stopped, answers 502 naming the source for the rest, and fetches nothing again after a restart', async () => {
    await fork!.stop();
    fork = await startTestHost({ dataFile: join(dir, 'fork.db') }); // a database holding a fork opens as that fork
    await source.stop();
    const copied = await http(fork, 'GET', `/tokens?collectionId=${ids.nft}&tokenId=${ids.parent}`);
    expect(copied.status).toBe(200);
    expect(copied.body.owner).toBe(ALICE);
    const never = await http(fork, 'GET', `/tokens?collectionId=${ids.nft}&tokenId=${ids.untouched}`);
    expect(never.status).toBe(502);
    expect(never.body.error).toMatchObject({ name: 'ForkSourceError' });
    expect(never.body.error.message).toContain(source.url);
  });
});
