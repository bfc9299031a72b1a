// The token property writer (chain §4, `internal_write_token_properties`): per key in order,
// permission lookup, immutability, authorisation, existence, then the write with the chain's
// space accounting. Used by set/delete token properties and by minting.
import { isOwnerOrAdmin } from '../access';
import { MAX_PROPERTIES_PER_ITEM, MAX_TOKEN_PROPERTIES_SIZE } from '../constants';
import type { DispatchContext } from '../context';
import { DispatchError } from '../errors';
import { checkPropertyKey, propertiesSize, propertyCost, withoutProperty, withProperty } from '../properties';
import type { CollectionRecord, Property } from '../types';
import { walkToTopmostOwner } from './nesting';
import { tokenLabel } from './shared';

/** One change: a value to set, or `null` to delete the key. */
export interface PropertyUpdate {
  key: string;
  value: string | null;
}

export type WriterMode =
  /** Minting: the token is known to exist; "token owner" = the minter mints to itself. */
  | { kind: 'mint'; mintTargetIsSigner: boolean }
  /** An existing token (or a missing one: existence is checked after permission). */
  | { kind: 'existing'; exists: boolean };

export interface WriteTokenPropertiesInput {
  collection: CollectionRecord;
  tokenId: number;
  /** The token's current properties (sorted); `[]` for a new or missing token. */
  properties: readonly Property[];
  mode: WriterMode;
  updates: readonly PropertyUpdate[];
}

/**
 * Apply `updates` in order and return the token's new (sorted) property list. Emits
 * `common.TokenPropertySet` / `common.TokenPropertyDeleted` per key (even for deleting an absent
 * key). Throws the chain's error at the first key that fails; the caller's overlay rolls back.
 */
export async function writeTokenProperties(ctx: DispatchContext, input: WriteTokenPropertiesInput): Promise<Property[]> {
  const { collection, tokenId, mode, updates } = input;
  const collectionId = collection.id;
  const label = tokenLabel(collectionId, tokenId);
  const permissions = new Map(collection.tokenPropertyPermissions.map((p) => [p.key, p.permission]));
  let properties = [...input.properties];

  // Lazily computed roles, once per call (the chain's LazyValue).
  const signerIsAdmin = isOwnerOrAdmin(collection, ctx.signer);
  let tokenOwner: boolean | undefined = mode.kind === 'mint' ? mode.mintTargetIsSigner : undefined;
  const isTokenOwner = async (): Promise<boolean> => {
    if (tokenOwner === undefined) {
      tokenOwner = (await walkToTopmostOwner(ctx.state, { collectionId, tokenId }, ctx.nestingBudget)) === ctx.signer;
    }
    return tokenOwner;
  };
  const tokenExists = mode.kind === 'mint' || mode.exists;

  for (const { key, value } of updates) {
    const verb = value === null ? 'delete' : 'set';
    // 1. An undeclared key behaves as {mutable: true, collectionAdmin: false, tokenOwner: false}.
    const permission = permissions.get(key);
    if (!permission) {
      throw new DispatchError(
        'common.NoPermission',
        `Cannot ${verb} property "${key}" of ${label}: the key has no token property permission in collection ${collectionId}; set a token property permission for it first`
      );
    }
    // 2. An immutable key can be written once, and never changed or deleted after that.
    if (!permission.mutable && properties.some((p) => p.key === key)) {
      throw new DispatchError('common.NoPermission', `Cannot ${verb} property "${key}" of ${label}: the key is immutable and already set`);
    }
    // 3. Authorisation (permission before existence).
    const allowed = (permission.collectionAdmin && signerIsAdmin) || (permission.tokenOwner && (await isTokenOwner()));
    if (!allowed) {
      const who = [
        permission.collectionAdmin ? `the owner or an admin of collection ${collectionId}` : null,
        permission.tokenOwner ? 'the token owner' : null
      ].filter(Boolean);
      throw new DispatchError(
        'common.NoPermission',
        who.length === 0
          ? `Cannot ${verb} property "${key}" of ${label}: its permission lets nobody write it`
          : `${ctx.signer} cannot ${verb} property "${key}" of ${label}: only ${who.join(' or ')} may write it`
      );
    }
    // 4. Existence (a successful token-owner walk already proved it).
    if (!tokenExists && tokenOwner === undefined) {
      throw new DispatchError('common.TokenNotFound', `Token not found: ${label}`);
    }
    // 5. Write.
    if (value === null) {
      checkPropertyKey(key);
      properties = withoutProperty(properties, key);
      ctx.emit('common', 'TokenPropertyDeleted', { collectionId, tokenId, propertyKey: key });
    } else {
      // The chain checks the space before subtracting the value being replaced (quirk).
      const consumed = propertiesSize(properties);
      const cost = propertyCost(key, value);
      if (consumed + cost > MAX_TOKEN_PROPERTIES_SIZE) {
        throw new DispatchError(
          'common.NoSpaceForProperty',
          `No space for property "${key}" on ${label}: its properties would take ${consumed + cost} bytes, more than the ${MAX_TOKEN_PROPERTIES_SIZE} allowed`
        );
      }
      checkPropertyKey(key);
      if (!properties.some((p) => p.key === key) && properties.length >= MAX_PROPERTIES_PER_ITEM) {
        throw new DispatchError('common.PropertyLimitReached', `Cannot add property "${key}" to ${label}: a token has at most ${MAX_PROPERTIES_PER_ITEM} properties`);
      }
      properties = withProperty(properties, key, value);
      ctx.emit('common', 'TokenPropertySet', { collectionId, tokenId, propertyKey: key });
    }
  }
  return properties;
}
