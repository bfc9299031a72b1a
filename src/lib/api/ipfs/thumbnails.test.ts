import { describe, expect, it } from 'vitest';
import { fileServer, type FileStoreLike, type StoredFile } from '../routes/ipfs';
import { MAX_SOURCE_PIXELS, declaredPixels, thumbnailSize } from './thumbnails';

const CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';

/** The first bytes of a PNG declaring `width` × `height` pixels (signature and IHDR; the rest is not read). */
function pngHead(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

function serverWith(type: string, drawn: string[], bytes: Uint8Array = pngHead(1000, 800)) {
  const file: StoredFile = { cid: CID, bytes, type, name: 'a', size: bytes.byteLength };
  const files: FileStoreLike = { putFile: async () => undefined, getFile: async (cid) => (cid === CID ? file : undefined) };
  return fileServer(files, {
    thumbnails: async (image, size, source) => {
      drawn.push(`${image.type} ${size} from ${source.width}x${source.height}`);
      return new Blob(['small'], { type: 'image/webp' });
    }
  });
}

const body = async (answer: Promise<Response> | null) => {
  const response = (await answer)!;
  return [response.headers.get('content-type'), await response.text()];
};

describe('thumbnails of stored images', () => {
  it('answers ?thumb with a small variant, drawn once per CID and size; the file itself without it', async () => {
    const drawn: string[] = [];
    const serve = serverWith('image/png', drawn);
    expect(await body(serve(new Request(`http://x/ipfs/${CID}?thumb=200`)))).toEqual(['image/webp', 'small']);
    expect(await body(serve(new Request(`http://x/ipfs/${CID}?thumb=256`)))).toEqual(['image/webp', 'small']);
    expect(drawn).toEqual(['image/png 256 from 1000x800']);
    expect((await body(serve(new Request(`http://x/ipfs/${CID}`))))[0]).toBe('image/png');
    expect((await body(serve(new Request(`http://x/ipfs/${CID}?thumb=big`))))[0]).toBe('image/png');
  });

  it('never decodes an image whose header declares more pixels than the bound, or no readable size: the file is served as it is', async () => {
    const drawn: string[] = [];
    const side = Math.ceil(Math.sqrt(MAX_SOURCE_PIXELS)) + 1;
    for (const bytes of [pngHead(side, side), pngHead(20_000, 20_000), new TextEncoder().encode('not an image at all'), pngHead(1000, 800).subarray(0, 20)]) {
      expect((await body(serverWith('image/png', drawn, bytes)(new Request(`http://x/ipfs/${CID}?thumb=128`))))[0]).toBe('image/png');
    }
    expect(drawn).toEqual([]);
    expect(declaredPixels(pngHead(side - 2, side - 2))).toEqual({ width: side - 2, height: side - 2 });
  });

  it('serves a vector image or a file that is no image as it is', async () => {
    const drawn: string[] = [];
    for (const type of ['image/svg+xml', 'text/plain']) expect((await body(serverWith(type, drawn)(new Request(`http://x/ipfs/${CID}?thumb=128`))))[0]).toBe(type);
    expect(drawn).toEqual([]);
  });

  it('rounds sizes up to a few and refuses nonsense', () => {
    expect([thumbnailSize('1'), thumbnailSize('129'), thumbnailSize('99999'), thumbnailSize('-1'), thumbnailSize(null)]).toEqual([128, 256, 512, undefined, undefined]);
  });
});
