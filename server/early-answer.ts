// An answer given before the client has sent all of its body (a 413 while the body streams, a
// refusal of guard.ts) must still reach the client. Closing a socket with unread data resets the
// connection, and a client that is still writing may then lose the answer. So such an answer is
// written at once but finished only when the rest of the body has been read and dropped, within
// LINGER_MS and LINGER_BYTES (a lingering close); past either the connection is closed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../src/lib/api/errors';
import { MAX_URL_LENGTH } from '../src/lib/limits';

const LINGER_MS = 5_000;
const LINGER_BYTES = 64 * 1024 * 1024;

type End = ServerResponse['end'];

/** From now on, `res.end()` before the request body is complete waits for (and drops) the rest of it. */
export function finishAfterRequestBody(req: IncomingMessage, res: ServerResponse): void {
  const end: End = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    res.end = end;
    if (req.complete || req.destroyed) return end.apply(this, args as Parameters<End>);
    const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as () => void) : undefined;
    // The whole answer goes out now (its length is declared), so the client can read it meanwhile.
    if (args[0] !== undefined && args[0] !== null) this.write(args[0] as string, (args[1] as BufferEncoding) ?? 'utf8');
    else this.flushHeaders();
    dropRestOfBody(req, () => (end as (this: ServerResponse, done?: () => void) => ServerResponse).call(this, callback));
    return this;
  } as End;
}

function dropRestOfBody(req: IncomingMessage, done: (abort: boolean) => void): void {
  let dropped = 0;
  let finished = false;
  const finish = (abort: boolean) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    done(abort);
    if (abort) req.socket?.destroy();
  };
  const timer = setTimeout(() => finish(true), LINGER_MS);
  timer.unref();
  // The body stream the handler gave up on would otherwise keep buffering whatever follows.
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) finish(true);
  });
  req.once('end', () => finish(false));
  req.once('close', () => finish(false));
  req.once('error', () => finish(true));
  req.resume();
}

/**
 * A request Node's parser refused before any handler ran (a request line and headers over 16 KiB,
 * a malformed request): answered with the error envelope, the connection closed gently (the
 * client may still be sending) rather than reset, which could lose the answer.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const refusal = tooLarge
    ? new ApiError('ValidationError', `The request line and headers are larger than the ${MAX_URL_LENGTH / 1024} KiB this service reads (a URL may be at most that long)`, { maxBytes: MAX_URL_LENGTH }, 431)
    : new ApiError('ValidationError', 'The request is not valid HTTP', undefined, 400);
  const body = JSON.stringify(refusal.toJSON());
  const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${refusal.status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-opalite-host: node\r\nconnection: close\r\n\r\n${body}`
  );
  // Read and drop what the client still sends until it closes, for at most LINGER_MS.
  let dropped = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  socket.once('close', () => clearTimeout(timer));
  socket.on('error', () => socket.destroy());
  socket.resume();
}
