// Image sizes said before upload: a note for large images, a refusal above the service's limit.
import { describe, expect, it } from 'vitest';
import { addImages, imageProblem, imageSizeCheck, noImage } from './image-choice';

const MiB = 1024 * 1024;
const file = (name: string, size: number) => ({ name, size });

describe('imageSizeCheck', () => {
  it('says nothing about images up to 5 MB', () => {
    expect(imageSizeCheck([file('a.png', 5 * MiB), file('b.png', 10)])).toEqual({ problem: null, note: null });
  });

  it('points out a large image with its size and the limits', () => {
    expect(imageSizeCheck([file('huge.png', Math.round(10.8 * MiB))])).toEqual({
      problem: null,
      note: 'This image is 10.8 MB: everyone who views the token downloads it, and images above 5 MB load slowly. The service takes files up to 20 MB.'
    });
    expect(imageSizeCheck([file('a.png', 6 * MiB), file('b.png', 1), file('c.png', 7 * MiB)], true).note).toMatch(/^a\.png is 6 MB, c\.png is 7 MB: everyone/);
  });

  it('refuses what the service would refuse', () => {
    expect(imageSizeCheck([file('poster.png', 25 * MiB)], true).problem).toBe('poster.png is 25 MB, and the service takes files up to 20 MB: choose a smaller copy');
    const choice = { ...noImage('file'), file: new File([new Uint8Array(21 * MiB)], 'big.png') };
    expect(imageProblem(choice)).toBe('This image is 21 MB, and the service takes files up to 20 MB: choose a smaller copy');
  });
});

describe('addImages', () => {
  const image = (name: string, size = 10, type = 'image/png') => ({ name, size, type });

  it('adds images by name, a new file of a picked name replacing the old one', () => {
    const first = image('a.png');
    const again = image('a.png', 20);
    const { files, problems } = addImages([first], [image('b.png'), again]);
    expect(files.map((f) => [f.name, f.size])).toEqual([
      ['a.png', 20],
      ['b.png', 10]
    ]);
    expect(problems).toEqual([]);
  });

  it('leaves out what is not an image, too large, or past the count, naming the files', () => {
    const { files, problems, leftOut } = addImages([image('a.png')], [image('notes.txt', 5, 'text/plain'), image('huge.png', 25 * MiB), image('b.png'), image('c.png'), image('d.png')], 2);
    expect(files.map((f) => f.name)).toEqual(['a.png', 'b.png']);
    expect([...leftOut]).toEqual([
      ['notes.txt', 'it is not an image'],
      ['huge.png', 'it is 25 MB, and the service takes files up to 20 MB'],
      ['c.png', 'a list takes up to 2 images'],
      ['d.png', 'a list takes up to 2 images']
    ]);
    expect(problems).toEqual([
      'notes.txt is not an image: left out',
      'huge.png is 25 MB, and the service takes files up to 20 MB: left out',
      'A list takes up to 2 images: c.png, d.png were left out'
    ]);
  });
});
