// Checks of what a service answered, for the answers the app computes with (block numbers, hashes,
// amounts): a field missing or of another type becomes an error naming the route and the field,
// never a NaN or "undefined" on screen. Other fields pass through untouched.

/** The service answered, but not in the shape its route promises. */
export class UnexpectedAnswerError extends Error {
  constructor(
    readonly route: string,
    readonly field: string,
    expected: string
  ) {
    super(`The service's answer to ${route} is not as expected: ${field} should be ${expected}`);
    this.name = 'UnexpectedAnswerError';
  }
}

/** The checks of one route's answer; each names the field it checks in its error. */
export function wireReader(route: string) {
  const fail = (field: string, expected: string): never => {
    throw new UnexpectedAnswerError(route, field, expected);
  };
  const record = (value: unknown, field: string): Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : fail(field, 'an object');
  return {
    fail,
    record,
    list: (value: unknown, field: string): unknown[] => (Array.isArray(value) ? value : fail(field, 'a list')),
    text: (value: unknown, field: string): string => (typeof value === 'string' ? value : fail(field, 'a string')),
    flag: (value: unknown, field: string): boolean => (typeof value === 'boolean' ? value : fail(field, 'true or false')),
    /** A whole number from 0 up (block numbers, ids, counts, times). */
    count: (value: unknown, field: string): number => (Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : fail(field, 'a whole number')),
    /** `0x` and 64 hex digits, lower-cased. */
    hash: (value: unknown, field: string): string => (typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value) ? value.toLowerCase() : fail(field, '0x and 64 hex digits')),
    /** An amount of the smallest unit as a decimal string. */
    amount: (value: unknown, field: string): string => (typeof value === 'string' && /^\d{1,80}$/.test(value) ? value : fail(field, 'a decimal string of the smallest unit'))
  };
}
