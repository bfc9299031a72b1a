// The Node host's body reader (server/body-reader.ts): the whole body within the budget, null as
// soon as it passes the budget (reading stops, the rest stays for early-answer.ts), an error when
// the client goes away mid-body. A PassThrough stands in for the IncomingMessage.
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { incomingBodyReader } from '../../server/body-reader';
import { readBodyBytes, BODY_READER } from '../../src/lib/api/body';

function incoming(): PassThrough & IncomingMessage {
  return new PassThrough() as PassThrough & IncomingMessage;
}

describe('incomingBodyReader', () => {
  it('returns every chunk, in order, as one array of its own', async () => {
    const req = incoming();
    const read = incomingBodyReader(req)(100);
    req.write(Buffer.from('{"a":'));
    req.end(Buffer.from('1}'));
    const bytes = await read;
    expect(new TextDecoder().decode(bytes!)).toBe('{"a":1}');
    expect(Buffer.isBuffer(bytes)).toBe(false);
  });

  it('stops at the first chunk past the budget and leaves the rest unread', async () => {
    const req = incoming();
    const read = incomingBodyReader(req)(8);
    req.write(Buffer.alloc(6));
    req.write(Buffer.alloc(6));
    expect(await read).toBeNull();
    expect(req.listenerCount('data')).toBe(0);
    expect(req.isPaused()).toBe(true);
  });

  it('rejects when the client closes the connection mid-body', async () => {
    const req = incoming();
    const read = incomingBodyReader(req)(100);
    req.write(Buffer.alloc(3));
    req.destroy();
    await expect(read).rejects.toThrow(/closed the connection/);
  });

  it('is what readBodyBytes uses when a request carries it: 413 past the budget, the bytes within it', async () => {
    const over = incoming();
    const request = new Request('http://h/x', { method: 'POST', body: 'ignored by the reader', headers: { 'content-type': 'application/json' } });
    Object.defineProperty(request, BODY_READER, { value: incomingBodyReader(over) });
    const refused = readBodyBytes(request, 4);
    over.end(Buffer.from('0123456789'));
    await expect(refused).rejects.toMatchObject({ status: 413 });

    const within = incoming();
    const second = new Request('http://h/x', { method: 'POST', body: 'ignored', headers: { 'content-type': 'application/json' } });
    Object.defineProperty(second, BODY_READER, { value: incomingBodyReader(within) });
    const read = readBodyBytes(second, 64);
    within.end(Buffer.from('[1,2]'));
    expect(new TextDecoder().decode(await read)).toBe('[1,2]');
  });
});
