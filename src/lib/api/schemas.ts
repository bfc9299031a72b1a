// Shared request schemas (zod): ids, addresses, properties, limits, permissions. Every string and
// array has a bound (limits.ts), so a huge value is refused by its length before any other work.
import { z } from 'zod';
import { isEthereumAddress, isValidAddress, normalizeAddress } from '../codec/address';
import {
  HASH_HEX_LENGTH,
  MAX_ACCOUNT_FIELD_LENGTH,
  MAX_CALL_HEX_LENGTH,
  MAX_DECIMAL_DIGITS,
  MAX_NUMBER_HEX_LENGTH,
  MAX_REQUEST_PROPERTIES,
  MAX_REQUEST_PROPERTY_KEY_CHARS,
  MAX_REQUEST_PROPERTY_VALUE_CHARS,
  MAX_SHORT_TEXT_LENGTH,
  MAX_SIGNATURE_HEX_LENGTH,
  quote
} from '../limits';

/** A string of at most `max` characters, refused by length first (`abort`: nothing else runs on it). */
export const boundedString = (name: string, max: number = MAX_SHORT_TEXT_LENGTH) =>
  z.string({ error: `${name} must be a string` }).max(max, { error: `${name} must be at most ${max} characters long`, abort: true });

/**
 * A string of at most `max` UTF-16 code units, as the chain counts collection names and
 * descriptions (zod's own `max` counts code points, so an emoji would count once, not twice).
 */
export const utf16Bounded = (name: string, max: number) =>
  // The coarse bound refuses a huge string at once; the refinement is the exact rule.
  boundedString(name, max * 2)
    .refine((s) => s.length <= max, { error: (issue) => `${name} must be at most ${max} UTF-16 code units long, got ${String(issue.input).length}` });

/** An array of at most `max` items. */
export const boundedArray = <T extends z.ZodTypeAny>(name: string, item: T, max: number) =>
  z.array(item, { error: `${name} must be an array` }).max(max, { error: `${name} must have at most ${max} items` });

/** 0x-prefixed hex of at most `max` characters (the `0x` included). */
export const hexString = (name: string, max: number) =>
  boundedString(name, max).regex(/^0x[0-9a-fA-F]*$/, { error: `${name} must be 0x-prefixed hex` });

/** Hex fields of a signer payload and a signature, each bounded by what it can hold. */
export const hashHex = (name: string) => hexString(name, HASH_HEX_LENGTH);
export const numberHex = (name: string) => hexString(name, MAX_NUMBER_HEX_LENGTH);
export const callHex = (name: string) => hexString(name, MAX_CALL_HEX_LENGTH);
export const signatureHex = hexString('signature', MAX_SIGNATURE_HEX_LENGTH);

/** A decimal number as a string (amounts): digits with an optional point, MAX_DECIMAL_DIGITS at most. */
export const decimalString = (name: string) => boundedString(name, MAX_DECIMAL_DIGITS + 1);

/** 0x + 64 hex digits: a block's or an extrinsic's hash. */
export const hash32 = (name: string) => z.string({ error: `${name} must be a string` }).regex(/^0x[0-9a-fA-F]{64}$/, { error: `${name} must be 0x + 64 hex digits` });

/**
 * A whole number from 0 to `max`; query strings are coerced, but an empty or blank one is refused
 * (`Number('')` is 0: `nonce=` would have built at nonce 0, `/explorer/block?number=` named the genesis block).
 */
export const wholeNumber = (name: string, max: number, maxText = `must be at most ${max}`) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? Number.NaN : v),
    z.coerce.number({ error: `${name} must be a number` }).int({ error: `${name} must be an integer number` }).min(0, { error: `${name} must be 0 or more` }).max(max, { error: `${name} ${maxText}` })
  );

/** A block number (u32); query strings are coerced. */
export const blockNumber = (name: string) => wholeNumber(name, 4_294_967_295, 'must fit in 32 bits');

/** A positive integer id; query strings are coerced (`collectionId=5`). */
export const id = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be an integer number` })
    .positive({ error: `${name} must be a positive number` })
    .max(4_294_967_295, { error: `${name} must fit in 32 bits` });

export const collectionId = id('collectionId');
export const tokenId = id('tokenId');

/** An SS58 address (any network prefix), a 32-byte public key or an Ethereum address; normalised. */
export const address = z
  .string({ error: 'address must be a string' })
  .max(MAX_ACCOUNT_FIELD_LENGTH, { error: (issue) => `Invalid address: ${quote(issue.input)} is longer than ${MAX_ACCOUNT_FIELD_LENGTH} characters`, abort: true })
  .refine(isValidAddress, { error: (issue) => `Invalid address: ${quote(issue.input)}` })
  .transform((a) => normalizeAddress(a));

/** An account the chain takes as a plain AccountId (a collection's new owner, its sponsor): not an Ethereum address. */
export const substrateAddress = (name: string) =>
  address.refine((a) => !isEthereumAddress(a), { error: `${name} must be a Substrate account: the chain takes an AccountId here, not an Ethereum address` });

/** A list in a query string: a single value is a one-element list; at most `max` items. */
export const optionalArray = <T extends z.ZodTypeAny>(item: T, max: number = MAX_REQUEST_PROPERTIES) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).max(max, { error: `at most ${max} values` }).optional());

/** A property key, bounded as request input: the chain's 256 bytes are the ledger's to check (DECISIONS 5). */
export const propertyKey = boundedString('key', MAX_REQUEST_PROPERTY_KEY_CHARS);
export const property = z.object({ key: propertyKey, value: boundedString('value', MAX_REQUEST_PROPERTY_VALUE_CHARS) });
export const properties = boundedArray('properties', property, MAX_REQUEST_PROPERTIES);

export const propertyPermission = z.object({
  mutable: z.boolean().optional().default(false),
  collectionAdmin: z.boolean().optional().default(false),
  tokenOwner: z.boolean().optional().default(false)
});
export const propertyKeyPermission = z.object({ key: propertyKey, permission: propertyPermission });
export const propertyKeyPermissions = (name: string) => boundedArray(name, propertyKeyPermission, MAX_REQUEST_PROPERTIES);

const limitNumber = z.number().int().nonnegative().nullable().optional();
const limitFlag = z.boolean().nullable().optional();

export const limits = z.object({
  accountTokenOwnershipLimit: limitNumber,
  sponsoredDataSize: limitNumber,
  sponsoredDataRateLimit: limitNumber,
  tokenLimit: limitNumber,
  sponsorTransferTimeout: limitNumber,
  sponsorApproveTimeout: limitNumber,
  ownerCanTransfer: limitFlag,
  ownerCanDestroy: limitFlag,
  transfersEnabled: limitFlag
});

/** `AllowList` and its pre-2022 name `WhiteList` are accepted; `AllowList` is stored and returned. */
export const access = z.enum(['Normal', 'AllowList', 'WhiteList']).transform((a) => (a === 'WhiteList' ? 'AllowList' : a));

export const permissions = z.object({
  access: access.optional(),
  mintMode: z.boolean().optional(),
  nesting: z
    .object({
      tokenOwner: z.boolean().optional(),
      collectionAdmin: z.boolean().optional(),
      restricted: z.array(z.number().int().positive()).max(16).nullable().optional()
    })
    .optional()
});

/** `NFT` and `Nft` are both accepted; `NFT` is stored and returned. */
export const mode = z
  .enum(['NFT', 'Nft', 'Fungible', 'ReFungible'])
  .transform((m) => (m === 'Nft' ? 'NFT' : m) as 'NFT' | 'Fungible' | 'ReFungible');

export const tokenRef = z.object({ collectionId, tokenId });
