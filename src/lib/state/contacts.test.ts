import { describe, expect, it } from 'vitest';
import { MAX_CONTACTS, contactName, parseContacts } from './contacts.svelte';

const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const DAVE = '5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy';

describe('contacts', () => {
  it('checks names: trimmed, present, bounded, printable', () => {
    expect(contactName('  Bob  ')).toBe('Bob');
    expect(() => contactName('  ')).toThrow('Contact name: give the contact a name');
    expect(() => contactName('x'.repeat(65))).toThrow('Contact name: at most 64 characters');
    expect(contactName('é'.repeat(64))).toHaveLength(64);
    expect(() => contactName('a\u0007b')).toThrow('Contact name: no control characters');
  });

  it('keeps the valid entries of stored text and drops the rest', () => {
    const stored = JSON.stringify([
      { name: 'Bob', address: BOB },
      { name: 'Bob again', address: BOB },
      { name: 'Bad', address: 'not-an-address' },
      { name: '', address: DAVE },
      { name: 7, address: DAVE },
      null,
      { name: 'Dave', address: ` ${DAVE} ` }
    ]);
    expect(parseContacts(stored)).toEqual([
      { name: 'Bob', address: BOB },
      { name: 'Dave', address: DAVE }
    ]);
    expect(parseContacts('{not json')).toEqual([]);
    expect(parseContacts('{"a":1}')).toEqual([]);
    expect(parseContacts(null)).toEqual([]);
  });

  it('loads at most the bounded count', () => {
    // Distinct valid addresses: the same key written in many SS58 prefixes is one contact, so use hex keys.
    const many = Array.from({ length: MAX_CONTACTS + 20 }, (_, i) => ({ name: `C${i}`, address: `0x${i.toString(16).padStart(64, '0')}` }));
    expect(parseContacts(JSON.stringify(many))).toHaveLength(MAX_CONTACTS);
  });
});
