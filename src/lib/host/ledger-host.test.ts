// LedgerHost over a Dexie store on fake-indexeddb: dev routes (export, import, reset, seal,
// block mode), file routes, and two hosts sharing one database as the worker and a tab do.
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { CID } from 'multiformats/cid';
import { unzipSync, zipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { devRoutes } from '../api/routes/dev';
import { cidOf, fileServer, ipfsRoutes } from '../api/routes/ipfs';
import { openDexieStore, type DexieStore } from '../storage/dexie-store';
import { encodeAddress } from '@polkadot/util-crypto';
import { publicKeyOf } from '../codec/address';
import { toHex } from '../codec/hash';
import type { BlockMode } from '../ledger/chain/config';
import type { SignatureVerifier } from '../ledger/chain/ledger';
import { LedgerHost, type WriteLock } from './ledger-host';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const ORIGIN = 'http://127.0.0.1:4173';

let counter = 0;
const open: { host: LedgerHost; store: DexieStore }[] = [];

/** A process-wide mutex standing in for the browser's Web Lock. */
function mutex(): WriteLock {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}

async function openHost(
  options: { name?: string; lock?: WriteLock; maxBytes?: number; blockMode?: BlockMode; verify?: SignatureVerifier; shared?: boolean } = {}
) {
  const store = await openDexieStore({ name: options.name ?? `host-test-${++counter}`, indexedDB, IDBKeyRange });
  const host = await LedgerHost.open({
    kind: 'node',
    store,
    shared: options.shared ?? true,
    blockMode: options.blockMode,
    verify: options.verify,
    writeLock: options.lock,
    routes: (h) => [...devRoutes(h, { files: store.files }), ...ipfsRoutes({ files: store.files, maxBytes: options.maxBytes })],
    outside: fileServer(store.files)
  });
  open.push({ host, store });
  return host;
}

afterEach(() => {
  for (const { host, store } of open.splice(0)) {
    host.close();
    store.close();
  }
});

async function call(host: LedgerHost, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' || body instanceof FormData ? body : JSON.stringify(body);
    if (!(body instanceof FormData)) (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const response = await host.handle(new Request(`${ORIGIN}${path}`, init));
  const text = await response.text();
  let json: any;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}

async function createCollection(host: LedgerHost, name = 'Opals', seed = '//Alice', address = ALICE) {
  const answer = await call(host, 'POST', '/sandbox/v1/collections?use=Result', { address, name, description: 'd', tokenPrefix: 'OPL' }, { authorization: `Seed ${seed}` });
  expect(answer.status, answer.text).toBe(201);
  expect(answer.json.isError).toBe(false);
  return answer.json.parsed.collectionId as number;
}

describe('dev routes', () => {
  it('reports the host and the chain', async () => {
    const host = await openHost();
    const { status, json, headers } = await call(host, 'GET', '/sandbox/v1/dev/status');
    expect(status).toBe(200);
    expect(headers.get('x-opalite-host')).toBe('node');
    expect(json).toMatchObject({ host: 'node', network: 'sandbox', rules: 'spec', head: { number: 0 }, blockMode: { kind: 'instant' } });
    expect(json.genesisHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('exports, resets and imports back the same chain', async () => {
    const host = await openHost();
    await createCollection(host);
    const exported = await call(host, 'GET', '/sandbox/v1/dev/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="opalite-sandbox-[0-9a-f]{8}-block-1\.json"$/);
    const genesis = host.ledger.config.genesisHash;

    const reset = await call(host, 'POST', '/sandbox/v1/dev/reset', { rules: 'unique' });
    expect(reset.status).toBe(201);
    expect(reset.json.genesisHash).not.toBe(genesis);
    expect(reset.json).toMatchObject({ rules: 'unique', head: { number: 0 } });
    expect((await call(host, 'GET', '/sandbox/v1/collections?collectionId=1')).json).toBeNull();
    expect((await call(host, 'GET', '/sandbox/v1/common/chain-properties')).json.genesisHash).toBe(reset.json.genesisHash);

    const imported = await call(host, 'POST', '/sandbox/v1/dev/import', exported.text);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.json).toMatchObject({ genesisHash: genesis, rules: 'spec', head: { number: 1 } });
    expect((await call(host, 'GET', '/sandbox/v1/collections?collectionId=1')).json).toMatchObject({ id: 1, name: 'Opals' });
    // The swapped ledger keeps producing on the imported chain.
    expect(await createCollection(host, 'Second')).toBe(2);
  });

  it('resets with an empty body, keeping the rules', async () => {
    const host = await openHost();
    const response = await host.handle(new Request(`${ORIGIN}/sandbox/dev/reset`, { method: 'POST' }));
    expect(response.status).toBe(201);
    expect((await response.json()).rules).toBe('spec');
  });

  it('refuses a bad or foreign file with a ValidationError and changes nothing', async () => {
    const host = await openHost();
    await createCollection(host);
    const before = (await call(host, 'GET', '/sandbox/v1/dev/export')).json;
    const other = await openHost();
    const foreign = JSON.parse((await call(other, 'GET', '/sandbox/v1/dev/export')).text);
    foreign.tables.meta.find((r: { key: string }) => r.key === 'chainConfig').value.network = 'quartz';

    const bad = [
      'not json',
      JSON.stringify({ hello: 'world' }),
      JSON.stringify({ ...before, version: 99 }),
      JSON.stringify({ ...before, tables: { ...before.tables, blocks: undefined } }),
      JSON.stringify(foreign)
    ];
    for (const body of bad) {
      const answer = await call(host, 'POST', '/sandbox/v1/dev/import', body);
      expect(answer.status, body.slice(0, 80)).toBe(400);
      expect(answer.json.error.name).toBe('ValidationError');
      expect(answer.json.error.message).not.toBe('');
    }
    const after = (await call(host, 'GET', '/sandbox/v1/dev/export')).json;
    expect(after.tables).toEqual(before.tables);
  });

  it("refuses an export claiming a real network's genesis hash (nothing signed for the sandbox may be valid there)", async () => {
    const host = await openHost();
    const text = (await call(host, 'GET', '/sandbox/v1/dev/export')).text;
    const unique = '0x84322d9cddbf35088f1e54e9a85c967a41a56a4f43445768125e61af166c7d31';
    const answer = await call(host, 'POST', '/sandbox/v1/dev/import', text.split(host.ledger.config.genesisHash).join(unique));
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/claims the genesis hash of Unique, a real network/);
    expect((await call(host, 'GET', '/sandbox/v1/dev/status')).json.genesisHash).toBe(host.ledger.config.genesisHash);
  });

  it('refuses rows the store cannot hold, changing nothing', async () => {
    const host = await openHost();
    const snapshot = (await call(host, 'GET', '/sandbox/v1/dev/export')).json;
    snapshot.tables.accounts.push({ address: { not: 'a key' }, free: 1, nonce: 0 });
    const answer = await call(host, 'POST', '/sandbox/v1/dev/import', JSON.stringify(snapshot));
    expect(answer.status).toBe(400);
    // Refused by the row checks of the import (or, without them, by the store): nothing changes.
    expect(answer.json.error.message).toMatch(/could not be stored|is not valid/);
    expect((await call(host, 'GET', '/sandbox/v1/dev/status')).json.genesisHash).toBe(host.ledger.config.genesisHash);
  });

  it('imports a multipart file too', async () => {
    const host = await openHost();
    await createCollection(host);
    const text = (await call(host, 'GET', '/sandbox/v1/dev/export')).text;
    await call(host, 'POST', '/sandbox/v1/dev/reset');
    const form = new FormData();
    form.set('file', new Blob([text], { type: 'application/json' }), 'ledger.json');
    const answer = await call(host, 'POST', '/sandbox/v1/dev/import', form);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json.head.number).toBe(1);
  });

  it('switches to manual blocks and seals by hand', async () => {
    const host = await openHost();
    const mode = await call(host, 'POST', '/sandbox/v1/dev/block-mode', { kind: 'manual' });
    expect(mode.json).toEqual({ blockMode: { kind: 'manual' } });
    const submitted = await call(
      host,
      'POST',
      '/sandbox/v1/balance/transfer?use=Submit',
      { address: ALICE, destination: BOB, amount: 1 },
      { authorization: 'Seed //Alice' }
    );
    expect(submitted.status, submitted.text).toBe(201);
    expect((await call(host, 'GET', '/sandbox/v1/dev/status')).json.head.number).toBe(0);
    const sealed = await call(host, 'POST', '/sandbox/v1/dev/blocks/seal');
    expect(sealed.status).toBe(201);
    expect(sealed.json.block).toMatchObject({ number: 1, extrinsics: [submitted.json.hash] });
    expect((await call(host, 'POST', '/sandbox/v1/dev/block-mode', { kind: 'interval' })).status).toBe(400);
  });
});

describe('pending extrinsics across a reset', () => {
  it('refuses what waited for the old chain rather than leaving it hanging', async () => {
    const host = await openHost();
    host.setBlockMode({ kind: 'manual' });
    const waiting = call(host, 'POST', '/sandbox/v1/balance/transfer?use=Result', { address: ALICE, destination: BOB, amount: 1 }, { authorization: 'Seed //Alice' });
    // Reset once the transfer waits in the stored pool (a fixed pause lost the race on a slow machine).
    await vi.waitUntil(async () => (await host.store.dump()).pool.length > 0, { timeout: 15_000, interval: 50 });
    await call(host, 'POST', '/sandbox/v1/dev/reset');
    const answer = await waiting;
    expect(answer.status).toBe(400);
    expect(answer.json.error.message).toMatch(/replaced/);
    // The new chain is untouched, and still in manual mode.
    expect((await call(host, 'GET', '/sandbox/v1/dev/status')).json).toMatchObject({ head: { number: 0 }, blockMode: { kind: 'manual' } });
  });

  it('answers the status of what waited as Invalid / Dropped after an import, not as unknown (a client polls it)', async () => {
    const host = await openHost();
    const exported = (await call(host, 'GET', '/sandbox/v1/dev/export')).text;
    host.setBlockMode({ kind: 'manual' });
    const built = await call(host, 'POST', '/sandbox/v1/balance/transfer?use=Build', { address: ALICE, destination: BOB, amount: 1 });
    const { signature } = (await call(host, 'POST', '/sandbox/v1/extrinsic/sign', { signerPayloadJSON: built.json.signerPayloadJSON }, { authorization: 'Seed //Alice' })).json;
    const signed = { signerPayloadJSON: built.json.signerPayloadJSON, signature };
    const submitted = await call(host, 'POST', '/sandbox/v1/extrinsic/submit', signed);
    expect(submitted.status, submitted.text).toBe(201);
    expect((await call(host, 'GET', `/sandbox/v1/extrinsic/status?hash=${submitted.json.hash}`)).json.status).toBe('Ready');
    expect((await call(host, 'POST', '/sandbox/v1/dev/import', exported)).status).toBe(201);
    const status = await call(host, 'GET', `/sandbox/v1/extrinsic/status?hash=${submitted.json.hash}`);
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ status: 'Invalid', isError: true, error: { details: { name: 'Dropped' } } });
    expect(status.json.error.message).toMatch(/replaced \(imported or reset\)/);
    // Its changes: never included (not "yet"); a second import keeps what the first one dropped.
    expect((await call(host, 'GET', `/sandbox/v1/extrinsic/changes?hash=${submitted.json.hash}`)).json.error.message).toMatch(/never included and changed nothing$/);
    expect((await call(host, 'POST', '/sandbox/v1/dev/import', exported)).status).toBe(201);
    expect((await call(host, 'GET', `/sandbox/v1/extrinsic/status?hash=${submitted.json.hash}`)).json.status).toBe('Invalid');
    // Sent again while blocks are manual: waiting, so Ready (the pool answers before what was dropped).
    expect((await call(host, 'POST', '/sandbox/v1/extrinsic/submit', signed)).status).toBe(201);
    expect((await call(host, 'GET', `/sandbox/v1/extrinsic/status?hash=${submitted.json.hash}`)).json.status).toBe('Ready');
    await call(host, 'POST', '/sandbox/v1/dev/import', exported);
    // The same chain again: the same signed bytes may be sent once more, and then its status is the new one's.
    host.setBlockMode({ kind: 'instant' });
    const again = await call(host, 'POST', '/sandbox/v1/extrinsic/submit', signed);
    expect([again.status, again.json.hash]).toEqual([201, submitted.json.hash]);
    expect((await call(host, 'GET', `/sandbox/v1/extrinsic/status?hash=${submitted.json.hash}`)).json).toMatchObject({ status: 'InBlock', isError: false });
  });
});

describe('files', () => {
  it('stores an upload under the CID `ipfs add` gives it and serves it at <origin>/ipfs/<cid>', async () => {
    const host = await openHost();
    const bytes = new TextEncoder().encode('hello opalite');
    const form = new FormData();
    form.set('file', new Blob([bytes], { type: 'image/png' }), 'hello.png');
    const upload = await call(host, 'POST', '/sandbox/v1/ipfs/upload-file', form);
    expect(upload.status, upload.text).toBe(201);
    const cid = await cidOf(bytes);
    expect(cid).toMatch(/^Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
    expect(upload.json).toEqual({ cid, fileUrl: `${ORIGIN}/ipfs/${cid}` });

    const file = await host.handle(new Request(`${ORIGIN}/ipfs/${cid}`));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(new TextDecoder().decode(await file.arrayBuffer())).toBe('hello opalite');
    expect((await host.handle(new Request(`${ORIGIN}/ipfs/${cid}`, { headers: { 'if-none-match': `"${cid}"` } }))).status).toBe(304);
    // The CIDv1 spelling of the same CID finds it too.
    const v1 = CID.parse(cid).toV1().toString();
    expect(v1).toMatch(/^bafybei/);
    expect((await host.handle(new Request(`${ORIGIN}/ipfs/${v1}`))).status).toBe(200);
    const missing = await host.handle(new Request(`${ORIGIN}/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy`));
    expect(missing.status).toBe(404);
    expect((await host.handle(new Request(`${ORIGIN}/ipfs/nonsense`))).status).toBe(400);
  });

  it('computes the CID ipfs gives (`ipfs add` with its default settings)', async () => {
    // `echo -n "hello world" | ipfs add -Q`: kubo's test/cli/cid_profiles_test.go SmallFileCID (docs/decisions/0002-ipfs-cid.md)
    expect(await cidOf(new TextEncoder().encode('hello world'))).toBe('Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD');
  });

  it('refuses a file above the limit with 413, and a body without the field', async () => {
    const host = await openHost({ maxBytes: 10 });
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(11)]), 'big.bin');
    const big = await call(host, 'POST', '/sandbox/v1/ipfs/upload-file', form);
    expect(big.status).toBe(413);
    expect(big.json.error.message).toMatch(/larger than/);
    const empty = new FormData();
    empty.set('other', 'x');
    expect((await call(host, 'POST', '/sandbox/v1/ipfs/upload-file', empty)).status).toBe(400);
    expect((await call(host, 'POST', '/sandbox/v1/ipfs/upload-file', { file: 'x' })).status).toBe(400);
  });
});

describe('two hosts on one database (the worker and a tab)', () => {
  it('apply blocks one at a time: nothing lost, no nonce used twice', async () => {
    const lock = mutex();
    const name = `shared-${++counter}`;
    const a = await openHost({ name, lock });
    const b = await openHost({ name, lock });
    expect(b.ledger.config.genesisHash).toBe(a.ledger.config.genesisHash);

    // Different signers at once on both hosts: every submission lands.
    const runs = await Promise.all([
      (async () => {
        for (let i = 0; i < 4; i++) await createCollection(a, `A${i}`);
      })(),
      (async () => {
        for (let i = 0; i < 4; i++) await createCollection(b, `B${i}`, '//Bob', BOB);
      })()
    ]);
    expect(runs).toHaveLength(2);
    const nonce = async (address: string) => (await call(a, 'GET', `/sandbox/v1/common/nonce?address=${address}`)).json.nonce;
    expect(await nonce(ALICE)).toBe(4);
    expect(await nonce(BOB)).toBe(4);

    // The same signer on both hosts at once: one of each pair may be refused, never both included.
    const answers = await Promise.all(
      [a, b].map((host) =>
        call(host, 'POST', '/sandbox/v1/balance/transfer?use=Result', { address: ALICE, destination: BOB, amount: 1 }, { authorization: 'Seed //Alice' })
      )
    );
    const included = answers.filter((x) => x.status === 201);
    expect(included.length).toBeGreaterThanOrEqual(1);
    expect(await nonce(ALICE)).toBe(4 + included.length);
    const dump = JSON.parse((await call(a, 'GET', '/sandbox/v1/dev/export')).text);
    // Refused ones keep an 'Invalid' status record with their nonce; only included ones used it.
    const aliceNonces = dump.tables.extrinsics
      .filter((e: { signer: string; status: string }) => e.signer === ALICE && e.status !== 'Invalid')
      .map((e: { nonce: number }) => e.nonce);
    expect(new Set(aliceNonces).size).toBe(aliceNonces.length);
    const numbers = dump.tables.blocks.map((blk: { number: number }) => blk.number).sort((x: number, y: number) => x - y);
    expect(numbers).toEqual(numbers.map((_: number, i: number) => i));
  });

  it('reads again after the other host imports the same chain with other rows at the same head', async () => {
    const lock = mutex();
    const name = `shared-${++counter}`;
    const a = await openHost({ name, lock });
    const b = await openHost({ name, lock });
    await createCollection(a, 'Opals');
    expect((await call(b, 'GET', '/sandbox/v1/collections?collectionId=1')).json).toMatchObject({ name: 'Opals' });
    const exported = JSON.parse((await call(a, 'GET', '/sandbox/v1/dev/export')).text);
    for (const row of exported.tables.collections) row.name = 'Renamed';
    expect((await call(a, 'POST', '/sandbox/v1/dev/import', JSON.stringify(exported))).status).toBe(201);
    // b hears 'replaced' on the ledger channel and reloads: the head is the same, its memory is not kept.
    await b.reload();
    expect((await call(b, 'GET', '/sandbox/v1/collections?collectionId=1')).json).toMatchObject({ name: 'Renamed' });
  });

  it('follows a reset made by the other host instead of writing onto the new chain', async () => {
    const lock = mutex();
    const name = `shared-${++counter}`;
    const a = await openHost({ name, lock });
    const b = await openHost({ name, lock });
    await createCollection(a);
    // b holds a transfer for the old chain when a resets the database under it.
    b.setBlockMode({ kind: 'manual' }, { quiet: true });
    const pooled = await call(b, 'POST', '/sandbox/v1/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount: 1 }, { authorization: 'Seed //Alice' });
    expect(pooled.status, pooled.text).toBe(201);
    const reset = await call(a, 'POST', '/sandbox/v1/dev/reset');
    const sealed = await call(b, 'POST', '/sandbox/v1/dev/blocks/seal');
    expect(sealed.status).toBe(409);
    expect(sealed.json.error.message).toMatch(/replaced/);
    expect((await call(a, 'GET', `/sandbox/v1/extrinsic/status?hash=${pooled.json.hash}`)).status).toBe(404);
    // Then b follows the new chain.
    await b.reload();
    expect(b.ledger.config.genesisHash).toBe(reset.json.genesisHash);
    b.setBlockMode({ kind: 'instant' }, { quiet: true });
    expect(await createCollection(b)).toBe(1);
    expect((await call(a, 'GET', '/sandbox/v1/dev/status')).json.head.number).toBe(1);
  });
});

describe('the waiting pool in the database', () => {
  for (const shared of [true, false]) {
    it(`keeps a waiting extrinsic across a restart on the same database (${shared ? 'shared' : 'sole writer'})`, async () => {
      const name = `pool-${++counter}`;
      const first = await openHost({ name, blockMode: { kind: 'manual' }, shared });
      const submitted = await call(first, 'POST', '/sandbox/v1/balance/transfer?use=Submit', { address: ALICE, destination: BOB, amount: 1 }, { authorization: 'Seed //Alice' });
      expect(submitted.status, submitted.text).toBe(201);
      first.close();
      open.find((o) => o.host === first)!.store.close();

      const second = await openHost({ name, blockMode: { kind: 'manual' }, shared });
      const status = async () => (await call(second, 'GET', `/sandbox/v1/extrinsic/status?hash=${submitted.json.hash}`)).json;
      expect(await status()).toMatchObject({ status: 'Ready', signer: ALICE });
      expect((await call(second, 'GET', `/sandbox/v1/common/nonce?address=${ALICE}`)).json.nonce).toBe(1);
      expect((await call(second, 'POST', '/sandbox/v1/dev/blocks/seal')).status).toBe(201);
      expect(await status()).toMatchObject({ status: 'InBlock', isError: false });
      expect(JSON.parse((await call(second, 'GET', '/sandbox/v1/dev/export')).text).tables.pool).toEqual([]);
    });
  }

  it('includes a signed transfer once however its signer is spelled', async () => {
    const host = await openHost();
    const signedTransfer = await call(host, 'POST', '/sandbox/v1/balance/transfer?use=Sign', { address: ALICE, destination: BOB, amount: 1 }, { authorization: 'Seed //Alice' });
    expect(signedTransfer.status, signedTransfer.text).toBe(201);
    const { signerPayloadJSON, signature } = signedTransfer.json;
    const pk = publicKeyOf(ALICE);
    const spellings = [ALICE, encodeAddress(pk, 0), toHex(pk), `0x${toHex(pk).slice(2).toUpperCase()}`];
    const answers = [];
    for (const address of spellings) answers.push(await call(host, 'POST', '/sandbox/v1/extrinsic/submit', { signerPayloadJSON: { ...signerPayloadJSON, address }, signature }));
    expect(answers.map((a) => a.status)).toEqual([201, 400, 400, 400]);
    for (const refused of answers.slice(1)) expect(refused.json.error.message).toMatch(/Already Imported/);
    const dump = JSON.parse((await call(host, 'GET', '/sandbox/v1/dev/export')).text);
    expect(dump.tables.extrinsics.filter((e: { signer: string }) => e.signer === ALICE)).toHaveLength(1);
  });

  it('checks signatures with the verify option it was given', async () => {
    const signers: string[] = [];
    const host = await openHost({
      verify: async (_message, _signature, signer) => {
        signers.push(signer);
        return false;
      }
    });
    const signedTransfer = await call(host, 'POST', '/sandbox/v1/balance/transfer?use=Sign', { address: ALICE, destination: BOB, amount: 1 }, { authorization: 'Seed //Alice' });
    const answer = await call(host, 'POST', '/sandbox/v1/extrinsic/submit', { signerPayloadJSON: signedTransfer.json.signerPayloadJSON, signature: signedTransfer.json.signature });
    expect(answer.status).toBe(400);
    expect(answer.json.error.name).toBe('BadSignatureError');
    expect(signers).toEqual([ALICE]);
  });
});

describe('a ledger archive on the browser store (Dexie)', () => {
  async function withImage(): Promise<{ host: LedgerHost; cid: string; zip: Uint8Array }> {
    const host = await openHost();
    const form = new FormData();
    form.set('file', new Blob([new TextEncoder().encode('a picture')], { type: 'image/png' }), 'p.png');
    const { cid } = (await call(host, 'POST', '/sandbox/v1/ipfs/upload-file', form)).json;
    const response = await host.handle(new Request(`${ORIGIN}/sandbox/v1/dev/export?files=1`));
    expect(response.headers.get('content-type')).toBe('application/zip');
    return { host, cid, zip: new Uint8Array(await response.arrayBuffer()) };
  }
  async function importZip(host: LedgerHost, zip: Uint8Array) {
    const response = await host.handle(new Request(`${ORIGIN}/sandbox/v1/dev/import`, { method: 'POST', headers: { 'content-type': 'application/zip' }, body: zip as BodyInit }));
    const text = await response.text();
    return { status: response.status, text, json: JSON.parse(text) };
  }
  const served = async (host: LedgerHost, cid: string) => (await host.handle(new Request(`${ORIGIN}/ipfs/${cid}`))).status;

  it('restores the files with the ledger in a fresh database', async () => {
    const { host, cid, zip } = await withImage();
    const fresh = await openHost();
    expect(await served(fresh, cid)).toBe(404);
    const imported = await importZip(fresh, zip);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.json.genesisHash).toBe((await call(host, 'GET', '/sandbox/v1/dev/status')).json.genesisHash);
    expect(await served(fresh, cid)).toBe(200);
  });

  it('stores no file when the ledger in the archive is refused (checked before the files are written)', async () => {
    const { cid, zip } = await withImage();
    const entries = unzipSync(zip);
    entries['ledger.json'] = new TextEncoder().encode('{"hello":1}');
    const fresh = await openHost();
    const before = (await call(fresh, 'GET', '/sandbox/v1/dev/status')).json.genesisHash;
    const refused = await importZip(fresh, zipSync(entries, { level: 0 }));
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/not an Opalite ledger export/);
    expect(await served(fresh, cid)).toBe(404);
    expect((await call(fresh, 'GET', '/sandbox/v1/dev/status')).json.genesisHash).toBe(before);
  });
});
