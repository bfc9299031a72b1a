// Collection mutations (reference sections 7, 10 and 11). Each validates its arguments, checks at
// build that the named collection exists (400 CollectionNotFoundError) and answers the chain call;
// everything else (permissions, limits, balances) is the ledger's dispatch.
import { z } from 'zod';
import { checkTokenPrefix } from '../../ledger/collections/create';
import { MAX_COLLECTION_DESCRIPTION_LENGTH, MAX_COLLECTION_NAME_LENGTH } from '../../ledger/constants';
import { DispatchError } from '../../ledger/errors';
import type { Call, CreateCollectionData } from '../../ledger/types';
import { mergeCreateCollectionContent } from '../content/index';
import { validationError } from '../errors';
import { mutation, type BuildContext } from '../route';
import { MAX_ADDRESSES_PER_CALL } from '../../limits';
import { address, boundedArray, boundedString, collectionId, limits, mode, permissions, properties, propertyKeyPermissions, substrateAddress, utf16Bounded } from '../schemas';
import { chainCall, content, propertyKeysBody, requireCollection } from './lookups';

const TAG = 'collections';

/** Body of a mutation naming only the signer and the collection. */
const collectionBody = z.object({ address, collectionId });

const createCollectionBody = z.object({
  address,
  name: utf16Bounded('name', MAX_COLLECTION_NAME_LENGTH),
  description: utf16Bounded('description', MAX_COLLECTION_DESCRIPTION_LENGTH),
  tokenPrefix: boundedString('tokenPrefix'),
  mode: mode.optional().describe('NFT (default; Nft also accepted), Fungible or ReFungible'),
  decimals: z
    .number({ error: 'decimals must be a number' })
    .int({ error: 'decimals must be an integer number' })
    .min(0, { error: 'decimals must not be negative' })
    .max(255, { error: 'decimals must fit in one byte' })
    .optional()
    .describe('Fungible collections only (the chain allows at most 30); ignored for other modes'),
  sponsorship: z.object({ address }).nullish().describe('A sponsor to propose; it must confirm with POST /collections/sponsorship/confirm'),
  limits: limits.nullish(),
  permissions: permissions.nullish(),
  metaUpdatePermission: z.enum(['ItemOwner', 'Admin', 'None']).optional().describe('Accepted and ignored (the chain no longer stores it)'),
  readOnly: z.boolean().optional(),
  schema: z.unknown().optional().describe('Unique schema v1 (schemaName "unique", schemaVersion "1.0.0", coverPicture, image.urlTemplate, ...); the default schema when absent'),
  properties: properties.optional().describe('Collection properties; override the schema keys of the same name'),
  tokenPropertyPermissions: propertyKeyPermissions('tokenPropertyPermissions').optional().describe('Override the schema-generated permissions of the same key'),
  adminList: boundedArray('adminList', address, MAX_ADDRESSES_PER_CALL).optional()
});

const transferBody = z
  .object({
    collectionId,
    address: address.optional().describe('The current owner, who signs'),
    from: address.optional().describe('Older name of `address`'),
    to: substrateAddress('to')
  })
  .refine((b) => b.address !== undefined || b.from !== undefined, { error: 'address (the current owner, who signs) is required', path: ['address'] });

const addToAllowListBody = z
  .object({
    address,
    collectionId,
    newAdminId: address.optional().describe('The address to add (the real client names it so)'),
    member: address.optional().describe('Alias of newAdminId'),
    addressToAdd: address.optional().describe('Alias of newAdminId')
  })
  .refine((b) => (b.newAdminId ?? b.member ?? b.addressToAdd) !== undefined, { error: 'newAdminId (the address to add) is required', path: ['newAdminId'] });

const removeFromAllowListBody = z
  .object({
    address,
    collectionId,
    addressToDelete: address.optional().describe('The address to remove'),
    member: address.optional().describe('Alias of addressToDelete')
  })
  .refine((b) => (b.addressToDelete ?? b.member) !== undefined, { error: 'addressToDelete (the address to remove) is required', path: ['addressToDelete'] });

/** The token prefix bound of the ledger's rule set, as a 400 at build. */
/** The token prefix under the ledger's rules; a refusal is the client's ValidationError. */
export function checkPrefix(prefix: string, ctx: BuildContext): void {
  try {
    checkTokenPrefix(prefix, ctx.ledger.rules);
  } catch (error) {
    if (error instanceof DispatchError) throw validationError(error.message);
    throw error;
  }
}

/** The chain call of a create-collection body; `mode` forced by the fungible and refungible routes. */
async function createCollectionCall(b: z.output<typeof createCollectionBody>, ctx: BuildContext, forcedMode?: 'Fungible' | 'ReFungible'): Promise<Call> {
  checkPrefix(b.tokenPrefix, ctx);
  const merged = content(() =>
    mergeCreateCollectionContent({ schema: b.schema, properties: b.properties, tokenPropertyPermissions: b.tokenPropertyPermissions })
  );
  const collectionMode = forcedMode ?? b.mode ?? 'NFT';
  return createCollectionChainCall(b, {
    mode: collectionMode,
    decimals: collectionMode === 'Fungible' ? (b.decimals ?? 0) : 0,
    tokenPrefix: b.tokenPrefix,
    tokenPropertyPermissions: merged.tokenPropertyPermissions,
    properties: merged.properties,
    adminList: b.adminList ?? []
  });
}

/** The fields every create-collection body shares (v1 and schema 2). */
interface CreateCollectionFields {
  name: string;
  description: string;
  sponsorship?: { address: string } | null;
  limits?: CreateCollectionData['limits'] | null;
  permissions?: CreateCollectionData['permissions'] | null;
  readOnly?: boolean;
}

/** unique.createCollectionEx from a body's shared fields and what its route decided (mode, prefix, content). */
export function createCollectionChainCall(
  b: CreateCollectionFields,
  decided: Pick<CreateCollectionData, 'mode' | 'decimals' | 'tokenPrefix' | 'properties' | 'tokenPropertyPermissions' | 'adminList' | 'erc721metadata'>
): Call {
  const data: CreateCollectionData = {
    ...decided,
    name: b.name,
    description: b.description,
    ...(b.sponsorship ? { pendingSponsor: b.sponsorship.address } : {}),
    ...(b.limits ? { limits: b.limits } : {}),
    ...(b.permissions ? { permissions: b.permissions } : {}),
    ...(b.readOnly !== undefined ? { readOnly: b.readOnly } : {})
  };
  return chainCall('unique.createCollectionEx', { data });
}

/** POST `path`: create a collection of `mode` (the fungible and refungible sections' createCollection). */
export function createCollectionRoute(path: string, tag: string, mode: 'Fungible' | 'ReFungible') {
  return mutation({
    method: 'POST',
    path,
    tag,
    summary: `Create a ${mode} collection${mode === 'Fungible' ? ' with `decimals`' : ''} (unique.createCollectionEx); parsed {collectionId}`,
    body: createCollectionBody.extend({
      mode: z.literal(mode, { error: `mode must be ${mode}` }).optional().describe(`${mode} (the only mode of this route)`)
    }),
    signer: (b) => b.address,
    toCall: (b, ctx) => createCollectionCall(b, ctx, mode)
  });
}

export const collectionWriteRoutes = [
  mutation({
    method: 'POST',
    path: '/collections',
    tag: TAG,
    summary: 'Create a collection (unique.createCollectionEx); parsed {collectionId}',
    body: createCollectionBody,
    signer: (b) => b.address,
    toCall: async (b, ctx) => createCollectionCall(b, ctx)
  }),
  mutation({
    method: 'DELETE',
    path: '/collections',
    tag: TAG,
    summary: 'Destroy an empty collection (unique.destroyCollection); parsed {success, collectionId}',
    body: collectionBody,
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.destroyCollection', { collectionId: b.collectionId });
    }
  }),
  mutation({
    method: 'POST',
    path: '/collections/properties',
    tag: TAG,
    summary: 'Set collection properties (unique.setCollectionProperties); parsed {properties: [{collectionId, propertyKey}]}',
    body: z.object({ address, collectionId, properties }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.setCollectionProperties', { collectionId: b.collectionId, properties: b.properties });
    }
  }),
  mutation({
    method: 'DELETE',
    path: '/collections/properties',
    tag: TAG,
    summary: 'Delete collection properties by key (unique.deleteCollectionProperties); parsed {properties: [{collectionId, propertyKey}]}',
    body: z.object({ address, collectionId, propertyKeys: propertyKeysBody }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.deleteCollectionProperties', { collectionId: b.collectionId, propertyKeys: b.propertyKeys });
    }
  }),
  mutation({
    method: 'POST',
    path: '/collections/set-limits',
    tag: TAG,
    summary: 'Set collection limits (unique.setCollectionLimits); parsed {collectionId, limits} with the effective limits',
    body: z.object({ address, collectionId, limits }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.setCollectionLimits', { collectionId: b.collectionId, limits: b.limits });
    }
  }),
  mutation({
    method: 'POST',
    path: '/collections/permissions',
    tag: TAG,
    summary: 'Set collection permissions: access (Normal/AllowList, WhiteList accepted), mintMode, nesting (unique.setCollectionPermissions); parsed {collectionId}',
    body: z.object({ address, collectionId, permissions }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.setCollectionPermissions', { collectionId: b.collectionId, permissions: b.permissions });
    }
  }),
  mutation({
    method: 'POST',
    path: '/collections/property-permissions',
    tag: TAG,
    summary: 'Set token property permissions (unique.setTokenPropertyPermissions); parsed {propertyPermissions: [{collectionId, propertyKey}]}',
    body: z.object({ address, collectionId, propertyPermissions: propertyKeyPermissions('propertyPermissions') }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.setTokenPropertyPermissions', { collectionId: b.collectionId, propertyPermissions: b.propertyPermissions });
    }
  }),
  mutation({
    method: 'POST',
    path: '/collections/transfers-enabled',
    tag: TAG,
    summary: 'Enable or disable token transfers (unique.setTransfersEnabledFlag); parsed {success}',
    body: z.object({ address, collectionId, isEnabled: z.boolean({ error: 'isEnabled must be a boolean' }) }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.setTransfersEnabledFlag', { collectionId: b.collectionId, value: b.isEnabled });
    }
  }),
  mutation({
    method: 'PATCH',
    path: '/collections/transfer',
    tag: TAG,
    summary: 'Change the collection owner (unique.changeCollectionOwner); signer `address` (or `from`); parsed {collectionId, owner}',
    body: transferBody,
    signer: (b) => (b.address ?? b.from)!,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.changeCollectionOwner', { collectionId: b.collectionId, newOwner: b.to });
    }
  }),
  mutation({
    method: 'POST',
    path: '/collections/admins',
    tag: TAG,
    summary: 'Add a collection admin (unique.addCollectionAdmin); parsed {collectionId, newAdmin}',
    body: z.object({ address, collectionId, newAdmin: address }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.addCollectionAdmin', { collectionId: b.collectionId, newAdmin: b.newAdmin });
    }
  }),
  mutation({
    method: 'DELETE',
    path: '/collections/admins',
    tag: TAG,
    summary: 'Remove a collection admin (unique.removeCollectionAdmin); parsed {collectionId, admin}',
    body: z.object({ address, collectionId, admin: address }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.removeCollectionAdmin', { collectionId: b.collectionId, account: b.admin });
    }
  }),
  mutation({
    method: 'POST',
    path: '/collections/sponsorship',
    tag: TAG,
    summary: 'Propose a collection sponsor (unique.setCollectionSponsor); the sponsor confirms; parsed {collectionId, sponsor}',
    body: z.object({ address, collectionId, newSponsor: substrateAddress('newSponsor') }),
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.setCollectionSponsor', { collectionId: b.collectionId, newSponsor: b.newSponsor });
    }
  }),
  mutation({
    method: 'POST',
    path: '/collections/sponsorship/confirm',
    tag: TAG,
    summary: 'Confirm sponsorship, signed by the proposed sponsor (unique.confirmSponsorship); parsed {collectionId, sponsor}',
    body: collectionBody,
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.confirmSponsorship', { collectionId: b.collectionId });
    }
  }),
  mutation({
    method: 'DELETE',
    path: '/collections/sponsorship',
    tag: TAG,
    summary: 'Remove the collection sponsor (unique.removeCollectionSponsor); parsed {collectionId}',
    body: collectionBody,
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.removeCollectionSponsor', { collectionId: b.collectionId });
    }
  }),
  mutation({
    method: 'POST',
    path: '/collections/add-to-allow-list',
    aliases: ['/collections/add-allow-list', '/collection/add-allow-list'],
    tag: TAG,
    summary: 'Add an address to the allow list (unique.addToAllowList); the member is `newAdminId` (aliases `member`, `addressToAdd`); parsed {collectionId, address}',
    body: addToAllowListBody,
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.addToAllowList', { collectionId: b.collectionId, address: (b.newAdminId ?? b.member ?? b.addressToAdd)! });
    }
  }),
  mutation({
    method: 'POST',
    path: '/collections/remove-from-allow-list',
    aliases: ['/collections/remove-allow-list', '/collection/remove-allow-list'],
    tag: TAG,
    summary: 'Remove an address from the allow list (unique.removeFromAllowList); the member is `addressToDelete` (alias `member`); parsed {collectionId, address}',
    body: removeFromAllowListBody,
    signer: (b) => b.address,
    toCall: async (b, { tx }) => {
      await requireCollection(tx, b.collectionId);
      return chainCall('unique.removeFromAllowList', { collectionId: b.collectionId, address: (b.addressToDelete ?? b.member)! });
    }
  })
];
