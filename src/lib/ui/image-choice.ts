// What a person chose as an image (a file to upload, a URL, a CID, or nothing) and how it
// becomes the `{ipfsCid}` / `{url}` object of the schema.
import type { RestClient } from '../client/client';
import { imageInput, isCid } from '../client/format';

export interface ImageChoice {
  kind: 'none' | 'file' | 'url' | 'cid';
  file: File | null;
  text: string;
}

export function noImage(kind: ImageChoice['kind'] = 'none'): ImageChoice {
  return { kind, file: null, text: '' };
}

/** A reason the choice cannot be used, or null. */
export function imageProblem(choice: ImageChoice): string | null {
  if (choice.kind === 'file' && !choice.file) return 'Choose an image file to upload';
  if (choice.kind === 'file' && choice.file && choice.file.size > 20 * 1024 * 1024) return 'The image is larger than 20 MB';
  if (choice.kind === 'url' && !/^(https?:\/\/|\/|data:image\/)/i.test(choice.text.trim())) return 'Give the image as a web address starting with https://';
  if (choice.kind === 'cid' && !isCid(choice.text.trim().replace(/^ipfs:\/\//, ''))) return 'This is not an IPFS CID (it starts with Qm… or b…)';
  return null;
}

/** The schema's image object; a file is uploaded to the service's file store first. */
export async function resolveImage(choice: ImageChoice, client: RestClient): Promise<{ ipfsCid: string } | { url: string } | undefined> {
  const problem = imageProblem(choice);
  if (problem) throw new Error(problem);
  switch (choice.kind) {
    case 'none':
      return undefined;
    case 'file':
      return { ipfsCid: (await client.upload(choice.file!)).cid };
    case 'url':
      return { url: choice.text.trim() };
    case 'cid':
      return imageInput(choice.text);
  }
}
