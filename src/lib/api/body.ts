// Reading request bodies: JSON (empty is `{}`) and the file of a multipart form, each failure a
// ValidationError in words.
import { validationError } from './errors';

/** The body parsed as JSON; an empty body is `{}`. */
export async function jsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw validationError('Request body is not valid JSON');
  }
}

/** The multipart form's field `file` (a File, or a string when sent as a plain field), or null. */
export async function formFile(request: Request): Promise<File | string | null> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw validationError('The multipart body could not be read');
  }
  return form.get('file') as File | string | null;
}
