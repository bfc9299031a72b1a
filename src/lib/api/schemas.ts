// Shared request schemas (zod): ids, addresses, properties, limits, permissions.
import { z } from 'zod';
import { isValidAddress, normalizeAddress } from '../codec/address';

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
  .refine(isValidAddress, { error: (issue) => `Invalid address: ${String(issue.input)}` })
  .transform((a) => normalizeAddress(a));

export const optionalArray = <T extends z.ZodTypeAny>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).optional());

export const property = z.object({ key: z.string(), value: z.string() });
export const properties = z.array(property);

export const propertyPermission = z.object({
  mutable: z.boolean().optional().default(false),
  collectionAdmin: z.boolean().optional().default(false),
  tokenOwner: z.boolean().optional().default(false)
});
export const propertyKeyPermission = z.object({ key: z.string(), permission: propertyPermission });

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
