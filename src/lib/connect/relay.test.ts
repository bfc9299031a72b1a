import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestMessage } from './protocol';
import { relay, type RelayAnswer } from './relay';

const OPALITE = 'http://127.0.0.1:4173';
const CID = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

function message(fields: Partial<RequestMessage> = {}): RequestMessage {
  return { v: 1, type: 'request', id: 1, method: 'GET', path: '/sandbox/v1/collections?collectionId=1', headers: [], body: null, ...fields };
}

/** A ledger that answers every request with JSON naming it, and remembers what it saw. */
function ledger() {
  const seen: Request[] = [];
  const fetchLedger = async (request: Request) => {
    seen.push(request);
    return new Response(JSON.stringify({ path: new URL(request.url).pathname }), { status: 200, headers: { 'content-type': 'application/json', 'x-opalite-host': 'test' } });
  };
  return { seen, fetchLedger };
}

function json(answer: RelayAnswer): any {
  return JSON.parse(new TextDecoder().decode(answer.body!));
}

async function refused(fields: Partial<RequestMessage>): Promise<{ status: number; error: any; reached: number }> {
  const { seen, fetchLedger } = ledger();
  const answer = await relay(message(fields), fetchLedger, OPALITE);
  return { status: answer.status, error: json(answer).error, reached: seen.length };
}

afterEach(() => vi.restoreAllMocks());

describe('the relay', () => {
  it('makes the request on the Opalite origin without credentials, forwarding only content type and accept', async () => {
    const { seen, fetchLedger } = ledger();
    const body = new TextEncoder().encode('{"name":"x"}').buffer;
    const answer = await relay(
      message({ method: 'POST', path: '/sandbox/v1/collections?use=Build', body, headers: [['content-type', 'application/json'], ['accept', 'application/json'], ['x-sdk-version', '0.7.7'], ['origin', 'https://evil.example']] }),
      fetchLedger,
      OPALITE
    );
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({ path: '/sandbox/v1/collections' });
    expect(answer.headers).toContainEqual(['x-opalite-host', 'test']);
    const [request] = seen;
    expect(request.url).toBe(`${OPALITE}/sandbox/v1/collections?use=Build`);
    expect(request.method).toBe('POST');
    expect(request.credentials).toBe('omit');
    expect([...request.headers.keys()].sort()).toEqual(['accept', 'content-type']);
    expect(await request.text()).toBe('{"name":"x"}');
  });

  it('reaches the API under /sandbox (with or without v1), its files, and the dev reads and sealing', async () => {
    for (const [method, path] of [
      ['GET', '/sandbox/collections?collectionId=1'],
      ['GET', `/ipfs/${CID}`],
      ['HEAD', `/ipfs/${CID}`],
      ['GET', '/sandbox/v1/dev/status'],
      ['GET', '/sandbox/v1/dev/export'],
      ['POST', '/sandbox/v1/dev/blocks/seal'],
      ['POST', '/sandbox/v1/ipfs/upload-file']
    ]) {
      const { seen, fetchLedger } = ledger();
      const answer = await relay(message({ method, path }), fetchLedger, OPALITE);
      expect([path, answer.status, seen.length]).toEqual([path, 200, 1]);
    }
  });

  it('refuses every path outside the sandbox API and its files, however it is spelled', async () => {
    for (const path of ['/', '/connect', '/network', '/service-worker.js', '/_app/version.json', '/sandboxed/v1', '/sandbox-v1/x', '/sandbox/v1/../../connect', '/sandbox/%2e%2e/connect', '/ipfs', '/ipfsx/a']) {
      const answer = await refused({ path });
      expect([path, answer.status, answer.reached]).toEqual([path, 403, 0]);
      expect(answer.error).toMatchObject({ code: 'UN01004', name: 'ValidationError', message: expect.stringMatching(/^Only the sandbox API/) });
    }
  });

  it('refuses the dev tools that replace or reconfigure the ledger, in every spelling', async () => {
    for (const path of ['/sandbox/v1/dev/reset', '/sandbox/dev/import', '/sandbox/v1/dev/block-mode', '/sandbox/v1/%64ev/reset', '/sandbox/v1//dev/reset', '/sandbox/v1/DEV/Reset', '/sandbox/v1/dev/blocks/seal/../../reset']) {
      const answer = await refused({ method: 'POST', path });
      expect([path, answer.status, answer.reached]).toEqual([path, 403, 0]);
      expect(answer.error.message).toMatch(/for its owner/);
    }
  });

  it('refuses credentials: a custodial seed and cookies never reach the ledger', async () => {
    for (const header of [['authorization', 'Seed //Alice'], ['cookie', 'a=b']] as [string, string][]) {
      const answer = await refused({ method: 'POST', path: '/sandbox/v1/collections?use=Result', headers: [header] });
      expect(answer).toMatchObject({ status: 403, reached: 0, error: { message: expect.stringMatching(/^Credentials do not cross/) } });
      expect(JSON.stringify(answer.error)).not.toContain('//Alice');
    }
  });

  it('refuses writes to the file gateway and a read with a body', async () => {
    expect(await refused({ method: 'POST', path: `/ipfs/${CID}` })).toMatchObject({ status: 403, reached: 0 });
    expect(await refused({ method: 'GET', body: new ArrayBuffer(2) })).toMatchObject({ status: 400, reached: 0, error: { message: 'A GET request has no body' } });
  });

  it('answers an error envelope when the ledger cannot be reached, and passes a body-less status as such', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failed = await relay(message(), async () => Promise.reject(new TypeError('Failed to fetch')), OPALITE);
    expect(failed.status).toBe(500);
    expect(json(failed).error).toMatchObject({ code: 'UN01000', message: 'Internal error' });
    const empty = await relay(message(), async () => new Response(null, { status: 204 }), OPALITE);
    expect(empty).toEqual({ status: 204, headers: [], body: null });
  });
});
