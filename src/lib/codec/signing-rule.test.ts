// The one signing rule, on fixed vectors: what it signs is polkadot's own encoding of the payload
// (checked against @polkadot/types, an implementation of its own), and every payload it must not
// sign is refused with its reason, whether the chain states its extensions or not.
import { TypeRegistry } from '@polkadot/types';
import { describe, expect, it } from 'vitest';
import { encodeCall } from './calls';
import { encodeMortalEra } from './era';
import { blake2b256, toHex } from './hash';
import { PayloadError, SIGNED_EXTENSIONS, buildSignerPayloadJSON, type SignerPayloadJSON } from './payload';
import { ESSENTIAL_EXTENSIONS, SigningRuleError, checkBuiltPayload, checkSignerPayload, rawSigningMessage, type SigningChain } from './signing-rule';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const GENESIS = '0x' + '11'.repeat(32);
const OTHER_GENESIS = '0x' + '22'.repeat(32);
const BLOCK = '0x' + 'ab'.repeat(32);

/** An Opalite ledger: it states its extensions, so the list must be exactly these. */
const EXACT: SigningChain = { genesisHash: GENESIS, signedExtensions: SIGNED_EXTENSIONS };
/** A real Unique REST service: it states no extensions, so the rule's fallback applies. */
const FALLBACK: SigningChain = { genesisHash: GENESIS };

const destroy5 = encodeCall({ name: 'unique.destroyCollection', args: { collectionId: 5 } });

function payload(over: Partial<SignerPayloadJSON> = {}): SignerPayloadJSON {
  const json = buildSignerPayloadJSON({
    address: ALICE,
    method: destroy5,
    nonce: 3,
    era: encodeMortalEra(64, 100),
    blockHash: BLOCK,
    blockNumber: 100,
    genesisHash: GENESIS,
    specVersion: 7,
    transactionVersion: 2
  });
  return { ...json, ...over };
}

/** polkadot's own payload bytes for `json` with `extensions` (the reference the rule must match). */
function polkadotMessage(json: SignerPayloadJSON, extensions: readonly string[]): string {
  const registry = new TypeRegistry();
  registry.setSignedExtensions([...extensions]);
  const bytes = registry.createType('ExtrinsicPayload', json, { version: 4 }).toU8a({ method: true });
  return toHex(bytes.length > 256 ? blake2b256(bytes) : bytes);
}

function refusal(run: () => unknown): SigningRuleError {
  try {
    run();
  } catch (error) {
    if (error instanceof SigningRuleError) return error;
    throw new Error(`expected a SigningRuleError, got ${String(error)}`);
  }
  throw new Error('expected a refusal, the payload was accepted');
}

describe('checkSignerPayload: what it signs', () => {
  it('signs polkadot’s payload bytes for the chain’s exact extension list, and decodes the call from them', () => {
    const json = payload();
    const checked = checkSignerPayload(json, EXACT);
    expect(checked.messageHex).toBe(polkadotMessage(json, SIGNED_EXTENSIONS));
    expect(toHex(checked.message)).toBe(checked.messageHex);
    expect(checked.call).toEqual({ name: 'unique.destroyCollection', args: { collectionId: 5 } });
  });

  it('signs the blake2b-256 hash of a payload longer than 256 bytes', () => {
    const method = encodeCall({ name: 'unique.setCollectionProperties', args: { collectionId: 1, properties: [{ key: 'description', value: 'x'.repeat(400) }] } });
    const json = payload({ method: toHex(method) });
    const checked = checkSignerPayload(json, EXACT);
    expect(checked.message).toHaveLength(32);
    expect(checked.messageHex).toBe(polkadotMessage(json, SIGNED_EXTENSIONS));
  });

  it('under the fallback, accepts a real network’s list with the data-less extensions it knows', () => {
    const extensions = ['CheckNonZeroSender', ...SIGNED_EXTENSIONS, 'CheckMaintenance', 'FakeTransactionFinalizer'];
    const json = payload({ signedExtensions: extensions });
    expect(checkSignerPayload(json, FALLBACK).messageHex).toBe(checkSignerPayload(payload(), EXACT).messageHex);
  });
});

describe('checkSignerPayload: what it refuses', () => {
  it('an empty extension list (the signature would hold at every nonce, on every chain)', () => {
    const exact = refusal(() => checkSignerPayload(payload({ signedExtensions: [] }), EXACT));
    expect(exact.reason).toBe('extensions');
    expect(exact.message).toContain(`exactly this chain's: ${SIGNED_EXTENSIONS.join(', ')}`);
    const fallback = refusal(() => checkSignerPayload(payload({ signedExtensions: [] }), FALLBACK));
    expect(fallback.reason).toBe('extensions');
    expect(fallback.message).toContain(`leaves out ${ESSENTIAL_EXTENSIONS.join(', ')}`);
  });

  it('the last extension dropped, and the list reversed, when the chain states its list', () => {
    expect(refusal(() => checkSignerPayload(payload({ signedExtensions: SIGNED_EXTENSIONS.slice(0, -1) }), EXACT)).reason).toBe('extensions');
    expect(refusal(() => checkSignerPayload(payload({ signedExtensions: [...SIGNED_EXTENSIONS].reverse() }), EXACT)).reason).toBe('extensions');
  });

  it('an extension listed twice (its data would be signed twice, shifting everything after it)', () => {
    const twice = [...SIGNED_EXTENSIONS, 'CheckNonce'];
    expect(refusal(() => checkSignerPayload(payload({ signedExtensions: twice }), EXACT)).reason).toBe('extensions');
    const fallback = refusal(() => checkSignerPayload(payload({ signedExtensions: twice }), FALLBACK));
    expect(fallback.reason).toBe('extensions');
    expect(fallback.message).toBe('signerPayloadJSON.signedExtensions lists an extension twice');
  });

  it('an extension it cannot encode, quoting a bounded piece of its name', () => {
    const error = refusal(() => checkSignerPayload(payload({ signedExtensions: [...SIGNED_EXTENSIONS, `CheckMetadataHash${'x'.repeat(200)}`] }), FALLBACK));
    expect(error.reason).toBe('extensions');
    expect(error.message).toContain('an extension Opalite cannot encode');
    expect(error.message.length).toBeLessThan(200);
  });

  it.each(ESSENTIAL_EXTENSIONS)('under the fallback, a list without %s', (missing) => {
    const error = refusal(() => checkSignerPayload(payload({ signedExtensions: SIGNED_EXTENSIONS.filter((name) => name !== missing) }), FALLBACK));
    expect(error.reason).toBe('extensions');
    expect(error.message).toContain(`leaves out ${missing}:`);
  });

  it('a list that is not a list of names', () => {
    expect(refusal(() => checkSignerPayload(payload({ signedExtensions: 'CheckGenesis' as unknown as string[] }), EXACT)).reason).toBe('extensions');
    expect(refusal(() => checkSignerPayload(payload({ signedExtensions: [1] as unknown as string[] }), FALLBACK)).reason).toBe('extensions');
  });

  it('a genesis of another chain (the genesis compared is the one inside the signed bytes)', () => {
    for (const chain of [EXACT, FALLBACK]) {
      const error = refusal(() => checkSignerPayload(payload({ genesisHash: OTHER_GENESIS }), chain));
      expect(error.reason).toBe('genesis');
      expect(error.message).toContain('another chain');
    }
  });

  it('a method with trailing bytes, a truncated method, and a method that is not hex', () => {
    const trailing = refusal(() => checkSignerPayload(payload({ method: `${toHex(destroy5)}00` }), EXACT));
    expect(trailing.reason).toBe('method');
    expect(trailing.message).toMatch(/^signerPayloadJSON.method does not decode completely: /);
    const truncated = refusal(() => checkSignerPayload(payload({ method: toHex(destroy5.subarray(0, destroy5.length - 1)) }), EXACT));
    expect(truncated.reason).toBe('method');
    expect(truncated.message).toContain('unexpected end of input');
    // Not hex: the payload's own encoding refuses the field first.
    expect(() => checkSignerPayload(payload({ method: 'destroy collection 5' }), EXACT)).toThrow(PayloadError);
  });

  it('a payload that is not an object', () => {
    expect(refusal(() => checkSignerPayload(null as unknown as SignerPayloadJSON, EXACT)).reason).toBe('payload');
  });
});

describe('checkBuiltPayload', () => {
  it('accepts a service’s signerPayloadHex that is the payload it describes (in either case)', () => {
    const json = payload();
    const hex = polkadotMessage(json, SIGNED_EXTENSIONS);
    expect(checkBuiltPayload(json, hex.toUpperCase().replace('0X', '0x'), EXACT).messageHex).toBe(hex);
  });

  it('refuses a service’s hex that differs from the payload (even by one byte), before anything is signed', () => {
    const json = payload();
    const hex = polkadotMessage(json, SIGNED_EXTENSIONS);
    const other = `${hex.slice(0, -2)}${hex.endsWith('00') ? '01' : '00'}`;
    const error = refusal(() => checkBuiltPayload(json, other, EXACT));
    expect(error.reason).toBe('payload');
    expect(error.message).toContain('is not the payload it describes');
    expect(refusal(() => checkBuiltPayload(json, undefined as unknown as string, EXACT)).reason).toBe('payload');
  });

  it('applies the rule before the comparison: a hex matching a payload the rule refuses is still refused', () => {
    const json = payload({ signedExtensions: [] });
    expect(refusal(() => checkBuiltPayload(json, polkadotMessage(json, []), EXACT)).reason).toBe('extensions');
  });
});

describe('rawSigningMessage', () => {
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it('wraps data that is not wrapped, and shows the text', () => {
    const raw = rawSigningMessage({ data: 'Log in to example.org', type: 'bytes' }, 1024);
    expect(text(raw.message)).toBe('<Bytes>Log in to example.org</Bytes>');
    expect(raw.text).toBe('Log in to example.org');
    expect(raw.hex).toBe(toHex(new TextEncoder().encode('Log in to example.org')));
  });

  it('does not wrap data already wrapped (as polkadot{.js} sends it)', () => {
    const raw = rawSigningMessage({ data: '<Bytes>hello</Bytes>' }, 1024);
    expect(text(raw.message)).toBe('<Bytes>hello</Bytes>');
    expect(raw.text).toBe('hello');
  });

  it('reads 0x data as its bytes, wrapped or not', () => {
    const hello = toHex(new TextEncoder().encode('hello'));
    expect(text(rawSigningMessage({ data: hello }, 1024).message)).toBe('<Bytes>hello</Bytes>');
    const wrappedHex = toHex(new TextEncoder().encode('<Bytes>hello</Bytes>'));
    expect(text(rawSigningMessage({ data: wrappedHex }, 1024).message)).toBe('<Bytes>hello</Bytes>');
  });

  it('shows hex, not text, for bytes that are not UTF-8 or hold control characters', () => {
    const binary = rawSigningMessage({ data: '0xff00fe' }, 1024);
    expect(binary.text).toBeNull();
    expect(binary.hex).toBe('0xff00fe');
    expect(Array.from(binary.message.subarray(7, 10))).toEqual([0xff, 0x00, 0xfe]);
    // A bell, and a right-to-left override that would hide what is signed.
    expect(rawSigningMessage({ data: 'pay\u0007 me' }, 1024).text).toBeNull();
    expect(rawSigningMessage({ data: 'abc\u202edef' }, 1024).text).toBeNull();
    // Line breaks and tabs are text.
    expect(rawSigningMessage({ data: 'line one\n\tline two' }, 1024).text).toBe('line one\n\tline two');
  });

  it('shows hex for invisible characters that would hide a statement: tags, zero-width, marks, separators, private use', () => {
    const hidden = [...'I authorise'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    for (const invisible of [hidden, '\u200b', '\u200e', '\u200f', '\u061c', '\u00ad', '\ufeff', '\u2028', '\u2029', '\ue000']) {
      expect(rawSigningMessage({ data: `Sign in to app.example${invisible}` }, 1024).text, JSON.stringify(invisible)).toBeNull();
    }
    // Letters of any script, accents and emoji stay text.
    for (const visible of ['Grüße aus Köln', '東京で署名', 'مرحبا', 'ok 👍🏽', 'e\u0301', 'dev 👩\u200d💻', 'می\u200cخواهم']) expect(rawSigningMessage({ data: visible }, 1024).text).toBe(visible);
    // Joiners that join nothing visible, or run together, still show hex.
    for (const hiding of ['a\u200c\u200d\u200cb', 'end\u200d', '\u200dstart', 'a \u200c b']) expect(rawSigningMessage({ data: hiding }, 1024).text, JSON.stringify(hiding)).toBeNull();
  });

  it('refuses data over the size bound, counted in bytes', () => {
    expect(rawSigningMessage({ data: 'é'.repeat(8) }, 16).text).toBe('é'.repeat(8));
    const error = refusal(() => rawSigningMessage({ data: 'é'.repeat(9) }, 16));
    expect(error.reason).toBe('raw');
    expect(error.message).toBe('signRaw data is 18 bytes; at most 16 are signed');
  });

  it('refuses type "payload" (a transaction is signed through signPayload) and data that is not a string', () => {
    const payloadType = refusal(() => rawSigningMessage({ data: '0x00', type: 'payload' }, 1024));
    expect(payloadType.reason).toBe('raw');
    expect(payloadType.message).toContain('sign a transaction with signPayload');
    expect(refusal(() => rawSigningMessage({ data: 5 }, 1024)).reason).toBe('raw');
  });
});
