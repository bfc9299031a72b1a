import { describe, expect, it } from 'vitest';
import { fileServer, type FileStoreLike, type StoredFile } from '../routes/ipfs';
import { thumbnailSize } from './thumbnails';

const CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';

function serverWith(type: string, drawn: string[]) {
  const file: StoredFile = { cid: CID, bytes: new TextEncoder().encode('full image bytes'), type, name: 'a', size: 16 };
  const files: FileStoreLike = { putFile: async () => undefined, getFile: async (cid) => (cid === CID ? file : undefined) };
  return fileServer(files, {
    thumbnails: async (image, size) => {
      drawn.push(`${image.type} ${size}`);
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
    expect(drawn).toEqual(['image/png 256']);
    expect(await body(serve(new Request(`http://x/ipfs/${CID}`)))).toEqual(['image/png', 'full image bytes']);
    expect(await body(serve(new Request(`http://x/ipfs/${CID}?thumb=big`)))).toEqual(['image/png', 'full image bytes']);
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
