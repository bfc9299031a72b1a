// A byte stream read on a budget: cut off (and cancelled) as soon as it passes `maxBytes`, so an
// oversized body is never buffered whole. Request bodies and a fork source's answers share it.
import { concatBytes } from './scale';

/** The stream's bytes, or null once they pass `maxBytes` (the rest is not read). */
export async function readCapped(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks.length === 1 ? chunks[0] : concatBytes(chunks);
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
}
