// The Node host answers the browser hosts' extra routes too: files at <origin>/ipfs/<cid> and
// the dev tools, with the data file following an import or reset.
import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../server/host';

let host: RunningHost;
const dataFile = join(tmpdir(), `opalite-node-files-${process.pid}.sqlite`);

beforeAll(async () => {
  host = await startHost({ port: 0, dataFile, log: () => {} });
});

afterAll(async () => {
  await host.stop();
  for (const f of [dataFile, `${dataFile}-wal`, `${dataFile}-shm`]) if (existsSync(f)) rmSync(f);
});

describe('Node host: files and dev tools', () => {
  it('uploads a file and serves it at <origin>/ipfs/<cid>', async () => {
    const form = new FormData();
    form.set('file', new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>'], { type: 'image/svg+xml' }), 'dot.svg');
    const upload = await fetch(`${host.url}/ipfs/upload-file`, { method: 'POST', body: form });
    expect(upload.status).toBe(201);
    const { cid, fileUrl } = (await upload.json()) as { cid: string; fileUrl: string };
    expect(fileUrl).toBe(`${new URL(host.url).origin}/ipfs/${cid}`);
    const file = await fetch(fileUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/svg+xml');
    expect(file.headers.get('content-security-policy')).toBe('sandbox');
    expect(file.headers.get('x-opalite-host')).toBe('node');
    expect(await file.text()).toContain('<svg');
  });

  it('resets through /dev/reset and keeps the data file in step', async () => {
    const before = host.ledger.config.genesisHash;
    const reset = await fetch(`${host.url}/dev/reset`, { method: 'POST' });
    expect(reset.status).toBe(201);
    const { genesisHash } = (await reset.json()) as { genesisHash: string };
    expect(genesisHash).not.toBe(before);
    expect(host.ledger.config.genesisHash).toBe(genesisHash);
    // The database file itself holds the new chain once the reset has answered.
    const db = new Database(dataFile, { readonly: true });
    try {
      const row = db.prepare(`SELECT value FROM meta WHERE key = 'genesisHash'`).get() as { value: string } | undefined;
      expect(row && JSON.parse(row.value).value).toBe(genesisHash);
    } finally {
      db.close();
    }
  });
});
