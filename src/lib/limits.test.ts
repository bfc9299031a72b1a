import { describe, expect, it } from 'vitest';
import * as chain from './ledger/constants';
import {
  DEFAULT_MAX_UPLOAD_BYTES,
  MAX_JSON_BODY_BYTES,
  MAX_REQUEST_PROPERTIES,
  MAX_REQUEST_PROPERTY_KEY_CHARS,
  MAX_REQUEST_PROPERTY_VALUE_CHARS,
  MAX_QUOTE_CHARS,
  MAX_TOKENS_PER_CALL,
  limitsDocument,
  quote,
  resolveLimits
} from './limits';

describe('limits', () => {
  it('follows the chain bounds it restates', () => {
    expect(MAX_TOKENS_PER_CALL).toBe(chain.MAX_ITEMS_PER_BATCH);
  });

  it('lets properties over the chain bounds reach the ledger, which applies them by its rule set (DECISIONS 5)', () => {
    expect(MAX_REQUEST_PROPERTIES).toBeGreaterThan(chain.MAX_PROPERTIES_PER_ITEM);
    // Characters: a key or value of more bytes than the chain's bound needs more characters than it.
    expect(MAX_REQUEST_PROPERTY_KEY_CHARS).toBeGreaterThan(chain.MAX_PROPERTY_KEY_LENGTH);
    expect(MAX_REQUEST_PROPERTY_VALUE_CHARS).toBeGreaterThan(chain.MAX_PROPERTY_VALUE_LENGTH);
  });

  it('takes a host’s own body limits over the defaults', () => {
    expect(resolveLimits()).toEqual({ maxJsonBytes: MAX_JSON_BODY_BYTES, maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES });
    expect(resolveLimits({ maxUploadBytes: 5 })).toEqual({ maxJsonBytes: 1024 * 1024, maxUploadBytes: 5 });
    expect(limitsDocument(resolveLimits({ maxJsonBytes: 7 })).maxJsonBodyBytes).toBe(7);
  });
});

describe('quote', () => {
  it('repeats input up to 120 characters as it is', () => {
    const at = 'a'.repeat(MAX_QUOTE_CHARS);
    expect(quote(at)).toBe(at);
    expect(quote('x')).toBe('x');
    expect(quote(42)).toBe('42');
  });

  it('cuts anything longer to 120 characters and says how long it was', () => {
    const over = 'b'.repeat(MAX_QUOTE_CHARS + 1);
    expect(quote(over)).toBe(`${'b'.repeat(MAX_QUOTE_CHARS)}… (121 characters)`);
    const huge = quote('c'.repeat(5_000_000));
    expect(huge.startsWith('c'.repeat(MAX_QUOTE_CHARS) + '…')).toBe(true);
    expect(huge.length).toBeLessThan(MAX_QUOTE_CHARS + 30);
  });

  it('survives values whose conversion to text throws', () => {
    expect(quote(Object.create(null))).toBe('[object Object]');
  });
});
