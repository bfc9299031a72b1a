import { TypeRegistry } from '@polkadot/types';
import { describe, expect, it } from 'vitest';
import { encodeCall } from './calls';
import { IMMORTAL_ERA, encodeMortalEra } from './era';
import { blake2b256, fromHex, toHex } from './hash';
import {
  PayloadError,
  SIGNED_EXTENSIONS,
  buildSignerPayloadJSON,
  encodeExtrinsicPayload,
  signerPayloadHex,
  signerPayloadRaw,
  type SignerPayloadJSON
} from './payload';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const GENESIS = '0x' + '11'.repeat(32);
const BLOCK = '0x' + 'ab'.repeat(32);

const registry = new TypeRegistry();
registry.setSignedExtensions([...SIGNED_EXTENSIONS]);

function polkadotPayload(json: SignerPayloadJSON): Uint8Array {
  return registry.createType('ExtrinsicPayload', json, { version: 4 }).toU8a({ method: true });
}

const shortMethod = encodeCall({ name: 'unique.destroyCollection', args: { collectionId: 5 } });
const longMethod = encodeCall({
  name: 'unique.setCollectionProperties',
  args: { collectionId: 1, properties: [{ key: 'description', value: 'x'.repeat(400) }] }
});

function sample(over: Partial<Parameters<typeof buildSignerPayloadJSON>[0]> = {}): SignerPayloadJSON {
  return buildSignerPayloadJSON({
    address: ALICE,
    method: shortMethod,
    nonce: 0,
    era: encodeMortalEra(64, 100),
    blockHash: BLOCK,
    blockNumber: 100,
    genesisHash: GENESIS,
    specVersion: 1,
    transactionVersion: 1,
    ...over
  });
}

describe('buildSignerPayloadJSON', () => {
  it('produces the twelve fields in polkadot hex widths', () => {
    expect(sample({ nonce: 7, blockNumber: 0x129c8, specVersion: 925_152, tip: 5n, blockHash: BLOCK.toUpperCase().replace('0X', '0x') })).toStrictEqual({
      address: ALICE,
      blockHash: BLOCK,
      blockNumber: '0x000129c8',
      era: '0x4502',
      genesisHash: GENESIS,
      method: '0x3d0205000000',
      nonce: '0x00000007',
      signedExtensions: [...SIGNED_EXTENSIONS],
      specVersion: '0x000e1de0',
      tip: '0x00000000000000000000000000000005',
      transactionVersion: '0x00000001',
      version: 4
    });
  });

  it('accepts hashes as bytes', () => {
    expect(sample({ genesisHash: fromHex(GENESIS) }).genesisHash).toBe(GENESIS);
  });

  it.each([
    [{ nonce: -1 }, 'signerPayloadJSON.nonce is out of range: -1'],
    [{ nonce: 2 ** 32 }, 'signerPayloadJSON.nonce is out of range: 4294967296'],
    [{ blockNumber: 1.5 }, 'signerPayloadJSON.blockNumber must be an integer, got 1.5'],
    [{ tip: 1n << 128n }, 'signerPayloadJSON.tip is out of range: 340282366920938463463374607431768211456'],
    [{ blockHash: '0x1234' }, 'signerPayloadJSON.blockHash must be 32 bytes'],
    [{ genesisHash: new Uint8Array(31) }, 'signerPayloadJSON.genesisHash must be 32 bytes'],
    [{ era: new Uint8Array([0, 0]) }, 'signerPayloadJSON.era is not a valid era: Invalid era: expected 0x00 or 2 bytes, got 2 byte(s)']
  ])('rejects %#', (over, message) => {
    expect(() => sample(over)).toThrow(PayloadError);
    expect(() => sample(over)).toThrow(message);
  });
});

describe('encodeExtrinsicPayload', () => {
  it('lays out method, extras, then additional signed data (fixed vector)', () => {
    const json = sample({ nonce: 5, tip: 0n, specVersion: 0x0e11e0, transactionVersion: 2, era: fromHex('0x8400') });
    expect(toHex(encodeExtrinsicPayload(json))).toBe(
      '0x3d0205000000' + // method
        '8400' + // era
        '14' + // compact nonce 5
        '00' + // compact tip 0
        'e0110e00' + // spec version, u32 LE
        '02000000' + // transaction version, u32 LE
        '11'.repeat(32) + // genesis hash
        'ab'.repeat(32) // checkpoint block hash
    );
  });

  it('follows the order and content of the listed extensions (no CheckTxVersion)', () => {
    const json = {
      ...sample({ nonce: 0, specVersion: 0x0e11e0, era: fromHex('0x8400') }),
      signedExtensions: ['CheckSpecVersion', 'CheckGenesis', 'CheckMortality', 'CheckNonce', 'CheckWeight', 'ChargeTransactionPayment']
    };
    const bytes = encodeExtrinsicPayload(json);
    // The reference's layout: method ‖ era ‖ nonce ‖ tip ‖ spec version ‖ genesis ‖ block.
    expect(bytes.length).toBe(shortMethod.length + 2 + 1 + 1 + 4 + 32 + 32);
    expect(toHex(bytes.subarray(shortMethod.length, shortMethod.length + 8))).toBe('0x84000000e0110e00');
  });

  it.each([
    ['short method, mortal era, nonce 0', sample()],
    ['short method, immortal era, large nonce and tip', sample({ era: IMMORTAL_ERA, blockHash: GENESIS, nonce: 4_294_967_295, tip: (1n << 128n) - 1n })],
    ['long method (hashed), mortal era', sample({ method: longMethod, nonce: 1_000_000, era: encodeMortalEra(4096, 1_234_567), specVersion: 10_070_055 })],
    ['long method, immortal era, small tip', sample({ method: longMethod, era: IMMORTAL_ERA, nonce: 63, tip: 64n })],
    ['empty method', sample({ method: new Uint8Array(), nonce: 16_384 })]
  ])('agrees with @polkadot/types ExtrinsicPayload: %s', (_label, json) => {
    const ours = encodeExtrinsicPayload(json);
    const theirs = polkadotPayload(json);
    expect(toHex(ours)).toBe(toHex(theirs));
    // polkadot's signing rule (`ExtrinsicPayload.sign`): its registry hash when longer than 256 bytes.
    expect(signerPayloadHex(ours)).toBe(toHex(theirs.length > 256 ? registry.hash(theirs) : theirs));
  });

  it('ignores unknown extra keys', () => {
    const json = { ...sample(), assetId: null, mode: 0, metadataHash: null, withSignedTransaction: false };
    expect(encodeExtrinsicPayload(json)).toEqual(encodeExtrinsicPayload(sample()));
  });

  it('accepts numeric fields given as JS numbers', () => {
    const json = { ...sample({ nonce: 9 }), nonce: 9, specVersion: 1, tip: 0 } as unknown as SignerPayloadJSON;
    expect(encodeExtrinsicPayload(json)).toEqual(encodeExtrinsicPayload(sample({ nonce: 9 })));
  });

  it.each([
    [{ method: 'nope' }, 'signerPayloadJSON.method must be 0x hex, got "nope"'],
    [{ method: '0x123' }, 'signerPayloadJSON.method must be 0x hex, got "0x123"'],
    [{ era: '0x0000' }, 'signerPayloadJSON.era is not a valid era'],
    [{ era: 5 }, 'signerPayloadJSON.era must be 0x hex, got 5'],
    [{ nonce: '0x100000000' }, 'signerPayloadJSON.nonce is out of range: 0x100000000'],
    [{ nonce: '12' }, 'signerPayloadJSON.nonce must be a 0x hex number, got "12"'],
    [{ nonce: -1 }, 'signerPayloadJSON.nonce must be a 0x hex number, got -1'],
    [{ tip: '0x' + 'f'.repeat(33) }, 'signerPayloadJSON.tip is out of range'],
    [{ specVersion: null }, 'signerPayloadJSON.specVersion must be a 0x hex number, got null'],
    [{ transactionVersion: undefined }, 'signerPayloadJSON.transactionVersion must be a 0x hex number, got undefined'],
    [{ blockNumber: 'x' }, 'signerPayloadJSON.blockNumber must be a 0x hex number, got "x"'],
    [{ genesisHash: '0x1234' }, 'signerPayloadJSON.genesisHash must be 32 bytes, got 2'],
    [{ blockHash: 'latest' }, 'signerPayloadJSON.blockHash must be 0x hex, got "latest"'],
    [{ version: 5 }, 'signerPayloadJSON.version must be 4, got 5'],
    [{ version: '4' }, 'signerPayloadJSON.version must be 4, got "4"'],
    [{ address: '' }, 'signerPayloadJSON.address must be a non-empty string'],
    [{ signedExtensions: 'CheckNonce' }, 'signerPayloadJSON.signedExtensions must be an array of extension names, got "CheckNonce"'],
    [{ signedExtensions: [...SIGNED_EXTENSIONS, 'CheckMetadataHash'] }, 'signerPayloadJSON.signedExtensions has an unknown extension "CheckMetadataHash"'],
    [{ signedExtensions: ['CheckNonce', 'CheckNonce'] }, 'signerPayloadJSON.signedExtensions lists CheckNonce twice']
  ])('rejects malformed field %#', (over, message) => {
    const json = { ...sample(), ...over } as unknown as SignerPayloadJSON;
    expect(() => encodeExtrinsicPayload(json)).toThrow(PayloadError);
    expect(() => encodeExtrinsicPayload(json)).toThrow(message);
  });

  it('rejects a non-object', () => {
    expect(() => encodeExtrinsicPayload(null as unknown as SignerPayloadJSON)).toThrow('signerPayloadJSON must be an object, got null');
  });

  it('names the field in PayloadError.field', () => {
    try {
      encodeExtrinsicPayload({ ...sample(), tip: 'free' });
      expect.unreachable();
    } catch (err) {
      expect((err as PayloadError).field).toBe('tip');
    }
  });
});

describe('signerPayloadHex / signerPayloadRaw', () => {
  it('keeps payloads up to 256 bytes and hashes longer ones', () => {
    const exactly256 = new Uint8Array(256).fill(7);
    expect(signerPayloadHex(exactly256)).toBe(toHex(exactly256));
    const longer = new Uint8Array(257).fill(7);
    expect(signerPayloadHex(longer)).toBe(toHex(blake2b256(longer)));
    expect(signerPayloadHex(longer)).toHaveLength(66);
  });

  it('gives the full, unhashed payload as raw data', () => {
    const json = sample({ method: longMethod });
    const raw = signerPayloadRaw(json);
    expect(raw).toStrictEqual({ address: ALICE, data: toHex(encodeExtrinsicPayload(json)), type: 'payload' });
    expect(fromHex(raw.data).length).toBeGreaterThan(256);
    expect(raw.data).toBe(toHex(polkadotPayload(json)));
  });
});
