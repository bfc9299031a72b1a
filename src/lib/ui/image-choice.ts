// What a person chose as an image (a file to upload, a URL, a CID, or nothing) and how it
// becomes the `{ipfsCid}` / `{url}` object of the schema.
import { DEFAULT_MAX_UPLOAD_BYTES } from '../limits';
import type { RestClient } from '../client/client';
import { fileSize, imageInput, isCid } from '../client/format';

export interface ImageChoice {
  kind: 'none' | 'file' | 'url' | 'cid';
  file: File | null;
  text: string;
}

export function noImage(kind: ImageChoice['kind'] = 'none'): ImageChoice {
  return { kind, file: null, text: '' };
}

/** The most the service's file store takes in one upload (the API's own default limit). */
export const MAX_IMAGE_BYTES = DEFAULT_MAX_UPLOAD_BYTES;
/** Above this an image is pointed out before upload: everyone who views the token downloads it. */
export const LARGE_IMAGE_BYTES = 5 * 1024 * 1024;

type Sized = Pick<File, 'name' | 'size'>;

/** `files` as a message names them: "This image is 10.8 MB" for the one of a form, else by name. */
function sizes(files: readonly Sized[], named: boolean): string {
  if (!named && files.length === 1) return `This image is ${fileSize(files[0].size)}`;
  return files.map((f) => `${f.name} is ${fileSize(f.size)}`).join(', ');
}

/**
 * What to tell the person about the size of images they picked, before anything is uploaded: a
 * `problem` for files the service would refuse, a `note` for large ones (still allowed). `named`
 * names each file (a list's images) instead of "This image".
 */
export function imageSizeCheck(files: readonly Sized[], named = false): { problem: string | null; note: string | null } {
  const tooLarge = files.filter((f) => f.size > MAX_IMAGE_BYTES);
  const large = files.filter((f) => f.size > LARGE_IMAGE_BYTES && f.size <= MAX_IMAGE_BYTES);
  return {
    problem: tooLarge.length ? `${sizes(tooLarge, named)}, and the service takes files up to ${fileSize(MAX_IMAGE_BYTES)}: choose a smaller copy` : null,
    note: large.length
      ? `${sizes(large, named)}: everyone who views the token downloads it, and images above ${fileSize(LARGE_IMAGE_BYTES)} load slowly. ` +
        `The service takes files up to ${fileSize(MAX_IMAGE_BYTES)}.`
      : null
  };
}

/** A reason the choice cannot be used, or null. */
export function imageProblem(choice: ImageChoice): string | null {
  if (choice.kind === 'file' && !choice.file) return 'Choose an image file to upload';
  if (choice.kind === 'file' && choice.file) {
    const { problem } = imageSizeCheck([choice.file]);
    if (problem) return problem;
  }
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

/** Images one list may pick (each becomes at most one token of a run). */
export const MAX_PICKED_IMAGES = 1000;

/**
 * `incoming` added to the `current` picked images, by file name (a file of a name already picked
 * replaces it): what is not an image, is larger than the service takes, or goes past `max` is left
 * out, each problem naming its files; `leftOut` says why of each file left out.
 */
export function addImages<F extends Pick<File, 'name' | 'size' | 'type'>>(
  current: readonly F[],
  incoming: readonly F[],
  max = MAX_PICKED_IMAGES
): { files: F[]; problems: string[]; leftOut: Map<string, string> } {
  const byName = new Map(current.map((f) => [f.name, f]));
  const notImages: string[] = [];
  const tooLarge: F[] = [];
  const overCount: string[] = [];
  for (const file of incoming) {
    if (file.type && !file.type.startsWith('image/')) notImages.push(file.name);
    else if (file.size > MAX_IMAGE_BYTES) tooLarge.push(file);
    else if (!byName.has(file.name) && byName.size >= max) overCount.push(file.name);
    else byName.set(file.name, file);
  }
  const problems: string[] = [];
  const names = (list: string[]) => (list.length > 5 ? `${list.slice(0, 5).join(', ')} and ${list.length - 5} more` : list.join(', '));
  if (notImages.length) problems.push(`${names(notImages)} ${notImages.length > 1 ? 'are not images' : 'is not an image'}: left out`);
  if (tooLarge.length) problems.push(`${sizes(tooLarge, true)}, and the service takes files up to ${fileSize(MAX_IMAGE_BYTES)}: left out`);
  if (overCount.length) problems.push(`A list takes up to ${max} images: ${names(overCount)} ${overCount.length > 1 ? 'were' : 'was'} left out`);
  // Why each file was left out, for a list row that names it.
  const leftOut = new Map<string, string>([
    ...notImages.map((name): [string, string] => [name, 'it is not an image']),
    ...tooLarge.map((f): [string, string] => [f.name, `it is ${fileSize(f.size)}, and the service takes files up to ${fileSize(MAX_IMAGE_BYTES)}`]),
    ...overCount.map((name): [string, string] => [name, `a list takes up to ${max} images`])
  ]);
  return { files: [...byName.values()], problems, leftOut };
}
