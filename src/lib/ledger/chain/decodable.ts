// The chain's bounded vectors: a call whose properties, keys or values exceed them cannot even be
// decoded by the runtime, so under `--rules unique` it is refused before inclusion (no fee, nonce
// unchanged); `spec` leaves the bounds to dispatch, which includes and charges the call. Only
// creation data bounds the number of entries (and createMultipleItemsEx its items, 120); set/delete
// lists and createMultipleItems' items are plain `Vec`s on the chain.
import { MAX_ITEMS_PER_BATCH, MAX_PROPERTIES_PER_ITEM, MAX_PROPERTY_KEY_LENGTH, MAX_PROPERTY_VALUE_LENGTH } from '../constants';
import { byteLength } from '../properties';
import type { RuleSet } from '../rules';
import { chainAccountMap } from '../tokens/addresses';
import type { Call, CallArgs, Property } from '../types';
import { TransactionError } from './errors';

interface BoundedList {
  keys: string[];
  values: string[];
  /** Creation data (`CollectionPropertiesVec`, `CollectionPropertiesPermissionsVec`): at most 64 entries. */
  countBounded: boolean;
  /** What the entries are, for the refusal. */
  what: string;
}

/** A collection's creation data holds a schema's own entries beside the ones a person typed. */
const CREATION_DATA = "in the new collection's creation data, a schema's own included";

/** Every list of a call with bounded keys and values (properties, keys or permissions). */
function boundedLists(call: Call): BoundedList[] {
  const ofProperties = (properties: Property[], countBounded: boolean, what = 'properties in one list') => ({ keys: properties.map((p) => p.key), values: properties.map((p) => p.value), countBounded, what });
  const ofPermissions = (permissions: { key: string }[], countBounded: boolean, what = 'token property permissions in one list') => ({ keys: permissions.map((p) => p.key), values: [], countBounded, what });
  switch (call.name) {
    case 'unique.createCollectionEx':
      return [ofProperties(call.args.data.properties, true, `properties ${CREATION_DATA}`), ofPermissions(call.args.data.tokenPropertyPermissions, true, `token property permissions ${CREATION_DATA}`)];
    case 'unique.createItem':
      return [ofProperties(call.args.properties, true)];
    case 'unique.setCollectionProperties':
    case 'unique.setTokenProperties':
      return [ofProperties(call.args.properties, false)];
    case 'unique.createMultipleItemsEx':
      return [...call.args.items, { properties: call.args.properties ?? [] }].map((item) => ofProperties(item.properties, true));
    case 'unique.createMultipleItems':
      return call.args.items.map((item) => ofProperties(item.properties, true));
    case 'unique.deleteCollectionProperties':
    case 'unique.deleteTokenProperties':
      return [{ keys: call.args.propertyKeys, values: [], countBounded: false, what: 'property keys in one list' }];
    case 'unique.setTokenPropertyPermissions':
      return [ofPermissions(call.args.propertyPermissions, false)];
    default:
      return [];
  }
}

/**
 * The entries of createMultipleItemsEx's `CreateItemExData` as the runtime decodes it: a
 * BoundedVec of items, or for the Fungible and RefungibleMultipleOwners maps their distinct owners.
 */
function exItemCount({ items, kind }: CallArgs['unique.createMultipleItemsEx']): number {
  if (items.length <= MAX_ITEMS_PER_BATCH || (kind !== 'Fungible' && kind !== 'RefungibleMultipleOwners')) return items.length;
  return chainAccountMap(items.map((item) => [item.owner, null] as const)).size;
}

/** Why the chain's runtime could not decode `call`, or null when every bounded vector fits. */
export function undecodableReason(call: Call): string | null {
  if (call.name === 'utility.batch' || call.name === 'utility.batchAll') {
    for (const [index, inner] of call.args.calls.entries()) {
      const reason = undecodableReason(inner);
      if (reason) return `call ${index} of the batch has ${reason}`;
    }
    return null;
  }
  if (call.name === 'unique.createMultipleItemsEx') {
    const count = exItemCount(call.args);
    if (count > MAX_ITEMS_PER_BATCH) return `${count} items in one createMultipleItemsEx (the chain's bound is ${MAX_ITEMS_PER_BATCH})`;
  }
  for (const { keys, values, countBounded, what } of boundedLists(call)) {
    if (countBounded && keys.length > MAX_PROPERTIES_PER_ITEM) return `${keys.length} ${what} (the chain's bound is ${MAX_PROPERTIES_PER_ITEM})`;
    const longKey = keys.find((key) => byteLength(key) > MAX_PROPERTY_KEY_LENGTH);
    if (longKey !== undefined) return `a property key of ${byteLength(longKey)} bytes (the chain's bound is ${MAX_PROPERTY_KEY_LENGTH})`;
    const longValue = values.find((value) => byteLength(value) > MAX_PROPERTY_VALUE_LENGTH);
    if (longValue !== undefined) return `a property value of ${byteLength(longValue)} bytes (the chain's bound is ${MAX_PROPERTY_VALUE_LENGTH})`;
  }
  return null;
}

/** Under `unique` rules, refuse a call the chain could not decode, before anything is charged. */
export function refuseUndecodable(call: Call, rules: RuleSet): void {
  if (rules.name !== 'unique') return;
  const reason = undecodableReason(call);
  if (reason) throw new TransactionError('BadPayload', `Could not decode the call: ${reason}; the chain refuses it before inclusion`, { reason: 'CannotDecode' });
}
