// The multipart forms of the IPFS routes: the body read within the upload budget, its parts
// counted before it is parsed (a body of a million tiny parts is refused, never turned into a
// million File objects), then parsed by the platform's FormData.
import { readBodyBytes } from '../body';
import { validationError } from '../errors';
import { MULTIPART_OVERHEAD_BYTES, quote } from '../../limits';

const MULTIPART = /^multipart\/form-data\s*(;|$)/i;
const BOUNDARY = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i;

/** How many `--boundary` delimiters the body has, counting no further than `stopAt`. */
function delimiterCount(bytes: Uint8Array, boundary: string, stopAt: number): number {
  const delimiter = new TextEncoder().encode(`--${boundary}`);
  let count = 0;
  for (let at = bytes.indexOf(delimiter[0]); at !== -1 && count < stopAt; at = bytes.indexOf(delimiter[0], at + 1)) {
    let i = 1;
    while (i < delimiter.length && bytes[at + i] === delimiter[i]) i++;
    if (i === delimiter.length) {
      count++;
      at += delimiter.length - 1;
    }
  }
  return count;
}

/**
 * The request's multipart form, its body at most `maxFileBytes` plus room for the framing, with
 * at most `maxParts` parts. Checks the content type itself: PATCH bodies reach routes unchecked.
 */
export async function readForm(request: Request, maxFileBytes: number, maxParts: number): Promise<FormData> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!MULTIPART.test(contentType)) throw validationError(`Invalid Content-type header "${quote(contentType)}": this route takes multipart/form-data`);
  const bytes = await readBodyBytes(request, maxFileBytes + MULTIPART_OVERHEAD_BYTES, 'The upload');
  const boundary = BOUNDARY.exec(contentType);
  // n parts have n + 1 delimiters (the last one closes the form).
  if (boundary && delimiterCount(bytes, boundary[1] ?? boundary[2], maxParts + 2) > maxParts + 1) {
    throw validationError(`The form has more than ${maxParts} parts`);
  }
  try {
    return await new Response(bytes as BodyInit, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw validationError('The multipart body could not be read');
  }
}

/** The files sent in `field`; a plain-text value there is refused. */
export function filesIn(form: FormData, field: string): File[] {
  return form.getAll(field).map((value) => {
    if (typeof value === 'string') throw validationError(`The field "${field}" must carry files, not text`);
    return value;
  });
}

/** The one file sent in `field`. */
export function fileIn(form: FormData, field: string): File {
  const [file] = filesIn(form, field);
  if (!file) throw validationError(`The form has no file in the field "${field}"`);
  return file;
}
