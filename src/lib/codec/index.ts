// Public API of the byte-exact layer: hashes, addresses, SCALE calls, payloads, signatures.
export { blake2b256, fromHex, isHex, toHex } from './hash';
export {
  InvalidAddressError,
  SS58_PREFIX,
  addressFromPublicKey,
  isEthereumAddress,
  isValidAddress,
  normalizeAddress,
  publicKeyOf
} from './address';
export {
  COLLECTION_ADDRESS_PREFIX,
  NESTING_ADDRESS_PREFIX,
  checksumAddress,
  collectionContractAddress,
  isCollectionContractAddress,
  parseNestingAddress,
  tokenNestingAddress
} from './nesting';
export { IMMORTAL_ERA, MORTAL_PERIOD, decodeEra, encodeMortalEra, eraBirth, eraDeath, type Era } from './era';
export { BALANCES_PALLET, CallDecodeError, CallEncodeError, UNIQUE_PALLET, callIndexOf, decodeCall, encodeCall } from './calls';
export {
  EXTRINSIC_VERSION,
  MAX_UNHASHED_PAYLOAD,
  PayloadError,
  SIGNED_EXTENSIONS,
  buildSignerPayloadJSON,
  encodeExtrinsicPayload,
  signerPayloadHex,
  signerPayloadRaw,
  type SignerPayloadInput,
  type SignerPayloadJSON
} from './payload';
export {
  InvalidSeedError,
  SignatureFormatError,
  pairFromSeed,
  signMessage,
  verifySignature,
  type SigningPair
} from './signature';
export { ExtrinsicError, encodeSignedExtrinsic, extrinsicHash, signedExtrinsicLength, type SignedExtrinsicInput } from './extrinsic';
export { ScaleError } from './scale';
