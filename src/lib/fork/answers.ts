// What a fork takes from its source's answers, checked like an import: every field typed and
// bounded, addresses valid (and written as this ledger writes them), before anything is copied.
import { z } from 'zod';
import { isValidAddress } from '../codec/address';
import { canonicalAccount } from '../ledger/chain/signature-check';
import {
  COLLECTION_ADMINS_LIMIT,
  MAX_COLLECTION_DESCRIPTION_LENGTH,
  MAX_COLLECTION_NAME_LENGTH,
  MAX_NESTING_RESTRICTED,
  MAX_PROPERTIES_PER_ITEM,
  MAX_PROPERTY_KEY_LENGTH,
  MAX_PROPERTY_VALUE_LENGTH
} from '../ledger/constants';

/** Longest list a fork takes from one answer (token ids of a collection, tokens of an account, an allow list). */
export const MAX_SOURCE_LIST = 100_000;

const id = z.number().int().positive().max(4_294_967_295);
/** An address as this ledger keys it: SS58 re-encoded with its prefix, 0x addresses lower-case. */
export const sourceAddress = z
  .string()
  .max(128)
  .refine((a) => isValidAddress(a), { error: 'not an address' })
  .transform((a) => (a.startsWith('0x') ? a.toLowerCase() : canonicalAccount(a)));
const uint = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const nullableUint = uint.nullable().optional().transform((v) => v ?? null);
const nullableBool = z.boolean().nullable().optional().transform((v) => v ?? null);
/** A raw amount: a decimal string of at most 40 digits. */
export const rawAmount = z.string().regex(/^\d{1,40}$/).transform((s) => BigInt(s));

const property = z.object({ key: z.string().min(1).max(MAX_PROPERTY_KEY_LENGTH), value: z.string().max(MAX_PROPERTY_VALUE_LENGTH * 2) });
const properties = z.array(property).max(MAX_PROPERTIES_PER_ITEM);
const permission = z.object({ mutable: z.boolean(), collectionAdmin: z.boolean(), tokenOwner: z.boolean() });

export const collectionAnswer = z.object({
  id,
  owner: sourceAddress,
  mode: z.enum(['NFT', 'Fungible', 'ReFungible']),
  decimals: z.number().int().min(0).max(30).optional().default(0),
  name: z.string().max(MAX_COLLECTION_NAME_LENGTH * 2),
  description: z.string().max(MAX_COLLECTION_DESCRIPTION_LENGTH * 2),
  tokenPrefix: z.string().max(64),
  sponsorship: z.object({ address: sourceAddress, isConfirmed: z.boolean() }).nullable().optional().transform((v) => v ?? null),
  limits: z.object({
    accountTokenOwnershipLimit: nullableUint,
    sponsoredDataSize: nullableUint,
    sponsoredDataRateLimit: nullableUint,
    tokenLimit: nullableUint,
    sponsorTransferTimeout: nullableUint,
    sponsorApproveTimeout: nullableUint,
    ownerCanTransfer: nullableBool,
    ownerCanDestroy: nullableBool,
    transfersEnabled: nullableBool
  }),
  readOnly: z.boolean().optional().default(false),
  permissions: z.object({
    access: z.enum(['Normal', 'AllowList']),
    mintMode: z.boolean(),
    nesting: z.object({
      tokenOwner: z.boolean(),
      collectionAdmin: z.boolean(),
      restricted: z.array(id).max(MAX_NESTING_RESTRICTED).nullable().optional().transform((v) => v ?? null)
    })
  }),
  properties: properties.optional().default([]),
  tokenPropertyPermissions: z.array(z.object({ key: z.string().min(1).max(MAX_PROPERTY_KEY_LENGTH), permission })).max(MAX_PROPERTIES_PER_ITEM).optional().default([]),
  // Opalite answers these with the collection; the real service on routes of their own.
  admins: z.array(sourceAddress).max(COLLECTION_ADMINS_LIMIT).optional(),
  lastTokenId: uint.optional(),
  totalSupply: uint.optional()
});

export const tokenAnswer = z.object({
  collectionId: id,
  tokenId: id,
  owner: sourceAddress,
  nestingParentToken: z.object({ collectionId: id, tokenId: id }).optional(),
  properties: properties.optional().default([])
});

export const adminsAnswer = z.object({ admins: z.array(sourceAddress).max(COLLECTION_ADMINS_LIMIT) });
export const lastTokenIdAnswer = z.object({ tokenId: uint });
export const totalSupplyAnswer = z.object({ totalSupply: uint });
export const balanceAnswer = z.object({ freeBalance: z.object({ raw: rawAmount }) });
export const nonceAnswer = z.object({ nonce: uint });
export const allowListAnswer = z.object({ addresses: z.array(sourceAddress).max(MAX_SOURCE_LIST) });
export const idsAnswer = z.object({ ids: z.array(id).max(MAX_SOURCE_LIST) });
const ref = z.object({ collectionId: id, tokenId: uint });
export const tokensAnswer = z.object({ tokens: z.array(ref).max(MAX_SOURCE_LIST) });
export const childrenAnswer = z.object({ children: z.array(ref).max(MAX_SOURCE_LIST) });
export const amountAnswer = z.object({ raw: rawAmount });
export const piecesAnswer = z.object({ amount: uint });
export const statsAnswer = z.object({ created: uint, destroyed: uint });
export const chainPropertiesAnswer = z.object({
  genesisHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  ss58Prefix: z.unknown().optional(),
  fork: z.unknown().optional()
});
export const headAnswer = z.object({ head: z.object({ number: uint, hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/) }) });
export const blockAnswer = z.object({ number: uint, hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/) });
