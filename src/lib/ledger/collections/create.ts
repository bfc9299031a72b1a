// Create collection (`unique.createCollectionEx`), checked in the chain's order.
import { EMPTY_LIMITS } from '../access';
import { TREASURY, deposit, withdraw } from '../balances';
import {
  COLLECTION_ADMINS_LIMIT,
  COLLECTION_CREATION_PRICE,
  COLLECTION_NUMBER_LIMIT,
  MAX_COLLECTION_DESCRIPTION_LENGTH,
  MAX_COLLECTION_NAME_LENGTH,
  MAX_DECIMAL_POINTS,
  MAX_PROPERTIES_PER_ITEM
} from '../constants';
import type { CallHandler } from '../context';
import { DispatchError } from '../errors';
import { META, readMeta, writeMeta } from '../meta';
import { byteLength } from '../properties';
import type { RuleSet } from '../rules';
import type { Address, CollectionMode, CollectionRecord, Property, PropertyKeyPermission } from '../types';
import { setCollectionProperty } from './collection-properties';
import { clampLimits } from './limits';
import { DEFAULT_PERMISSIONS, checkAccess, clampPermissions } from './permissions';
import { withPropertyPermission } from './property-permissions';

/** The chain's mode id in `common.CollectionCreated` (`CollectionMode::id()`). */
export const MODE_IDS: Record<CollectionMode, number> = { NFT: 1, Fungible: 2, ReFungible: 3 };

/**
 * Token prefix bound of the rule set: `spec` counts characters (code points), `unique` counts
 * UTF-8 bytes. Throws `common.CollectionTokenPrefixLimitExceeded`.
 */
export function checkTokenPrefix(prefix: string, rules: RuleSet): void {
  const { max, unit } = rules.tokenPrefix;
  const length = unit === 'chars' ? [...prefix].length : byteLength(prefix);
  if (length > max) {
    const what = unit === 'chars' ? 'characters' : 'bytes of UTF-8';
    throw new DispatchError('common.CollectionTokenPrefixLimitExceeded', `Token prefix "${prefix}" is ${length} ${what} long; the limit is ${max}`);
  }
}

export const createCollectionEx: CallHandler<'unique.createCollectionEx'> = async (ctx, { data }) => {
  const mode = data.mode;
  if (!(mode in MODE_IDS)) {
    throw new DispatchError('common.UnsupportedOperation', `Collection mode must be NFT, Fungible or ReFungible, got ${String(mode)}`);
  }

  // 1. Decimals (fungible only).
  const decimals = mode === 'Fungible' ? (data.decimals ?? 0) : 0;
  if (mode === 'Fungible' && (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMAL_POINTS)) {
    throw new DispatchError('unique.CollectionDecimalPointLimitExceeded', `Decimals must be a whole number from 0 to ${MAX_DECIMAL_POINTS}, got ${decimals}`);
  }

  // 2. Name, description (UTF-16 code units) and token prefix (per rule set).
  const name = data.name ?? '';
  const description = data.description ?? '';
  const tokenPrefix = data.tokenPrefix ?? '';
  if (name.length > MAX_COLLECTION_NAME_LENGTH) {
    throw new DispatchError(
      'common.CollectionNameLimitExceeded',
      `Collection name is ${name.length} UTF-16 code units long; the limit is ${MAX_COLLECTION_NAME_LENGTH}`
    );
  }
  if (description.length > MAX_COLLECTION_DESCRIPTION_LENGTH) {
    throw new DispatchError(
      'common.CollectionDescriptionLimitExceeded',
      `Collection description is ${description.length} UTF-16 code units long; the limit is ${MAX_COLLECTION_DESCRIPTION_LENGTH}`
    );
  }
  checkTokenPrefix(tokenPrefix, ctx.rules);

  // 3. A read-only collection is the chain's "external" one; users may not create those.
  if (data.readOnly === true) {
    throw new DispatchError('common.NoPermission', 'A read-only collection cannot be created by a user: readOnly must be false');
  }

  // 4. The non-refundable creation deposit, to the treasury.
  await withdraw(
    ctx.state,
    ctx.signer,
    COLLECTION_CREATION_PRICE,
    'common.NotSufficientFounds',
    `Not enough funds to pay the collection creation deposit of 2 units: ${ctx.signer}`
  );
  await deposit(ctx.state, TREASURY, COLLECTION_CREATION_PRICE);

  // 5. At most 100 000 collections alive.
  const created = await readMeta<number>(ctx.state, META.createdCollectionCount, 0);
  const destroyed = await readMeta<number>(ctx.state, META.destroyedCollectionCount, 0);
  const id = created + 1;
  if (id - destroyed > COLLECTION_NUMBER_LIMIT) {
    throw new DispatchError('common.TotalCollectionsLimitExceeded', `There are already ${COLLECTION_NUMBER_LIMIT} collections; destroy one first`);
  }

  // 6. Limits (the set-limits clamp against all-null) and permissions (defaults filled).
  const limits = clampLimits(EMPTY_LIMITS, data.limits ?? {});
  const basePermissions = { ...DEFAULT_PERMISSIONS, access: data.access ? checkAccess(data.access) : DEFAULT_PERMISSIONS.access };
  const permissions = clampPermissions(basePermissions, data.permissions ?? {});

  // 7. Collection properties; 8. token property permissions (duplicates overwrite).
  let properties: Property[] = [];
  let tokenPropertyPermissions: PropertyKeyPermission[] = [];
  try {
    for (const { key, value } of data.properties ?? []) properties = setCollectionProperty(properties, key, value, 'the new collection');
    for (const { key, permission } of data.tokenPropertyPermissions ?? []) {
      tokenPropertyPermissions = withPropertyPermission(tokenPropertyPermissions, key, permission, 'The new collection');
    }
  } catch (e) {
    throw creationOverLimit(e, data);
  }

  // 9. Admins: duplicates ignored, at most 5 (the owner may be one of them).
  const admins: Address[] = [...new Set(data.adminList ?? [])];
  if (admins.length > COLLECTION_ADMINS_LIMIT) {
    throw new DispatchError(
      'common.CollectionAdminCountExceeded',
      `A collection may have at most ${COLLECTION_ADMINS_LIMIT} admins; the admin list has ${admins.length}`
    );
  }

  const collection: CollectionRecord = {
    id,
    owner: ctx.signer,
    mode,
    decimals,
    name,
    description,
    tokenPrefix,
    sponsorship: data.pendingSponsor ? { address: data.pendingSponsor, isConfirmed: false } : null,
    limits,
    permissions,
    readOnly: false,
    ...(data.erc721metadata ? { erc721metadata: true } : {}),
    properties,
    tokenPropertyPermissions,
    admins,
    tokensMinted: 0,
    tokensBurnt: 0
  };
  await ctx.state.put('collections', collection);
  await writeMeta(ctx.state, META.createdCollectionCount, id);
  ctx.emit('common', 'CollectionCreated', { collectionId: id, mode: MODE_IDS[mode], owner: ctx.signer });
};

/** PropertyLimitReached at creation, told as the whole list's count: a schema's own entries count too, which the person did not type. */
function creationOverLimit(error: unknown, data: { properties?: readonly { key: string }[]; tokenPropertyPermissions?: readonly { key: string }[] }): unknown {
  if (!(error instanceof DispatchError) || error.errorName !== 'PropertyLimitReached') return error;
  const distinct = (list: readonly { key: string }[] | undefined) => new Set((list ?? []).map((entry) => entry.key)).size;
  const properties = distinct(data.properties);
  const [count, what] = properties > MAX_PROPERTIES_PER_ITEM ? [properties, 'properties'] : [distinct(data.tokenPropertyPermissions), 'token property permissions'];
  return new DispatchError(
    'common.PropertyLimitReached',
    `The new collection's creation data has ${count} ${what} (distinct keys); a collection has at most ${MAX_PROPERTIES_PER_ITEM}, and a schema's own ${what} count too`
  );
}
