// The handler's body reader on the Node host (api/body.ts BODY_READER): reads the request body
// straight from the socket, within the handler's byte budget. Hono's Node adapter would build a
// full Request with a web stream over the socket for every body, which costs more than the rest
// of a small write's handling. Past the budget it stops reading and leaves the rest of the body
// to early-answer.ts, which drops it while the answer goes out.
import type { IncomingMessage } from 'node:http';
import type { BodyReader } from '../src/lib/api/body';

export function incomingBodyReader(req: IncomingMessage): BodyReader {
  return (maxBytes) =>
    new Promise((resolve, reject) => {
      if (req.readableEnded) return resolve(new Uint8Array(0)); // read already, or no body at all
      const chunks: Buffer[] = [];
      let total = 0;
      const stop = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('close', onClose);
      };
      const onData = (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxBytes) {
          stop();
          req.pause();
          resolve(null);
        } else chunks.push(chunk);
      };
      const onEnd = () => {
        stop();
        // A copy of its own: the chunks may be views of buffers Node reuses.
        const bytes = new Uint8Array(total);
        let offset = 0;
        for (const chunk of chunks) {
          bytes.set(chunk, offset);
          offset += chunk.length;
        }
        resolve(bytes);
      };
      const onError = (error: Error) => {
        stop();
        reject(error);
      };
      const onClose = () => {
        stop();
        reject(new Error('The client closed the connection before sending the whole request body'));
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('close', onClose);
      req.resume();
    });
}
