import { GenericExtrinsicSignatureV4, TypeRegistry } from '@polkadot/types';
import { cryptoWaitReady } from '@polkadot/util-crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { publicKeyOf } from './address';
import { encodeCall } from './calls';
import { IMMORTAL_ERA, encodeMortalEra } from './era';
import { ExtrinsicError, encodeSignedExtrinsic, extrinsicHash, signedExtrinsicLength } from './extrinsic';
import { blake2b256, fromHex, toHex } from './hash';
import { SIGNED_EXTENSIONS, buildSignerPayloadJSON, encodeExtrinsicPayload, signerPayloadHex } from './payload';
import { pairFromSeed, signMessage, verifySignature } from './signature';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ALICE_PK = 'd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
const SIGNATURE = new Uint8Array(65).fill(9);
SIGNATURE[0] = 1;
const METHOD = fromHex('0x3d0205000000');

beforeAll(async () => {
  await cryptoWaitReady();
});

describe('encodeSignedExtrinsic', () => {
  it('lays out a signed v4 extrinsic (fixed vector)', () => {
    const bytes = encodeSignedExtrinsic({
      publicKey: publicKeyOf(ALICE),
      signature: SIGNATURE,
      era: fromHex('0x4502'),
      nonce: 5,
      tip: 7n,
      method: METHOD
    });
    const body = '84' + '00' + ALICE_PK + '01' + '09'.repeat(64) + '4502' + '14' + '1c' + '3d0205000000';
    // 109-byte body: compact 109 is two bytes, (109 << 2) | 1 = 0x01b5 little-endian.
    expect(body.length / 2).toBe(109);
    expect(toHex(bytes)).toBe('0xb501' + body);
  });

  it('matches @polkadot/types ExtrinsicSignatureV4 between the version byte and the method', () => {
    const registry = new TypeRegistry();
    registry.setSignedExtensions([...SIGNED_EXTENSIONS]);
    for (const [era, nonce, tip] of [
      [encodeMortalEra(64, 100), 5, 7n],
      [IMMORTAL_ERA, 0, 0n],
      [encodeMortalEra(4096, 1_000_000), 4_294_967_295, (1n << 128n) - 1n]
    ] as const) {
      const json = buildSignerPayloadJSON({
        address: ALICE,
        method: METHOD,
        nonce,
        era,
        blockHash: '0x' + '11'.repeat(32),
        blockNumber: 100,
        genesisHash: '0x' + '22'.repeat(32),
        specVersion: 1,
        transactionVersion: 1,
        tip
      });
      const theirs = registry.createType('ExtrinsicSignatureV4') as unknown as GenericExtrinsicSignatureV4;
      theirs.addSignature(ALICE, SIGNATURE, json);
      const ours = encodeSignedExtrinsic({ publicKey: publicKeyOf(ALICE), signature: SIGNATURE, era, nonce, tip, method: METHOD });
      const prefix = ours.length - 1 - theirs.toU8a().length - METHOD.length;
      expect(toHex(ours.subarray(prefix + 1, ours.length - METHOD.length))).toBe(toHex(theirs.toU8a()));
      expect(ours[prefix]).toBe(0x84);
      expect(toHex(ours.subarray(ours.length - METHOD.length))).toBe(toHex(METHOD));
      expect(ours.length).toBe(signedExtrinsicLength(METHOD.length, era.length, nonce, tip));
    }
  });

  it('encodes what was really signed and verifies', () => {
    const pair = pairFromSeed('//Alice');
    const method = encodeCall({ name: 'unique.transfer', args: { to: ALICE, collectionId: 1, tokenId: 1, value: 1n } });
    const json = buildSignerPayloadJSON({
      address: ALICE,
      method,
      nonce: 3,
      era: encodeMortalEra(64, 10),
      blockHash: '0x' + '11'.repeat(32),
      blockNumber: 10,
      genesisHash: '0x' + '22'.repeat(32),
      specVersion: 1,
      transactionVersion: 1
    });
    const message = fromHex(signerPayloadHex(encodeExtrinsicPayload(json)));
    const signature = signMessage(pair, message);
    expect(verifySignature(message, signature, ALICE)).toBe(true);
    const bytes = encodeSignedExtrinsic({ publicKey: pair.publicKey, signature: fromHex(signature), era: fromHex(json.era), nonce: 3, tip: 0n, method });
    expect(bytes.length).toBe(signedExtrinsicLength(method.length, 2, 3, 0n));
    expect(extrinsicHash(bytes)).toBe(toHex(blake2b256(bytes)));
  });

  it.each([
    [{ publicKey: new Uint8Array(31) }, 'Extrinsic signer public key must be 32 bytes'],
    [{ signature: new Uint8Array(64) }, 'Extrinsic signature must be 65 bytes (type byte + 64 bytes)'],
    [{ era: new Uint8Array([0, 0]) }, 'Extrinsic era is invalid: Invalid era: expected 0x00 or 2 bytes, got 2 byte(s)'],
    [{ nonce: -1 }, 'Extrinsic nonce or tip is invalid: compact u32 out of range: -1'],
    [{ tip: -1n }, 'Extrinsic nonce or tip is invalid: compact out of range: -1']
  ])('rejects %#', (over, message) => {
    const input = { publicKey: publicKeyOf(ALICE), signature: SIGNATURE, era: IMMORTAL_ERA, nonce: 0, tip: 0n, method: METHOD, ...over };
    expect(() => encodeSignedExtrinsic(input)).toThrow(ExtrinsicError);
    expect(() => encodeSignedExtrinsic(input)).toThrow(message);
  });
});

describe('extrinsicHash', () => {
  it('is the blake2b-256 of the whole encoding (fixed vector)', () => {
    expect(extrinsicHash(new Uint8Array())).toBe('0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  });
});

describe('signedExtrinsicLength', () => {
  it('equals the encoded length across compact size classes', () => {
    for (const methodLength of [0, 6, 100, 16_000, 20_000]) {
      for (const nonce of [0, 63, 64, 16_383, 16_384, 1_073_741_823, 1_073_741_824, 4_294_967_295]) {
        for (const tip of [0n, 1n << 40n, (1n << 128n) - 1n]) {
          for (const era of [IMMORTAL_ERA, encodeMortalEra(64, 5)]) {
            const bytes = encodeSignedExtrinsic({
              publicKey: publicKeyOf(ALICE),
              signature: SIGNATURE,
              era,
              nonce,
              tip,
              method: new Uint8Array(methodLength)
            });
            expect(signedExtrinsicLength(methodLength, era.length, nonce, tip)).toBe(bytes.length);
          }
        }
      }
    }
  });

  it('gives a fixed value for a short call', () => {
    // 2 + 32 + 65 + 2 (era) + 1 (nonce) + 1 (tip) + 6 (method) = 109 body bytes, + 2 length bytes.
    expect(signedExtrinsicLength(6, 2, 0, 0n)).toBe(111);
  });
});
