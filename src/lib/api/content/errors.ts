// Invalid schema or token content; the API layer answers it as a 400 ValidationError.
export class ContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContentError';
  }
}

/** The message of anything thrown, for wrapping library errors. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
