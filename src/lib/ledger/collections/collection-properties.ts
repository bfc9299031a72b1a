// Collection properties: set and delete, with the chain's key rules and space accounting.
import { MAX_COLLECTION_PROPERTIES_SIZE, MAX_PROPERTIES_PER_ITEM } from '../constants';
import type { CallHandler } from '../context';
import { DispatchError } from '../errors';
import { checkEntryCount, checkPropertyKey, checkPropertyValue, propertiesSize, propertyCost, withProperty, withoutProperty } from '../properties';
import type { Property } from '../types';
import { ensureOwnerOrAdmin, loadMutableCollection, saveCollection } from './shared';

/**
 * `list` (sorted) with `key` set to `value`, checked as the chain's space-metered property map
 * does, in its order: the space check first (`consumed + cost(key, value) > 40 960` →
 * `common.NoSpaceForProperty`; the chain's quirk: the value being replaced is not subtracted
 * first), then the key (`common.EmptyPropertyKey`, `common.InvalidCharacterInPropertyKey`), then
 * `common.PropertyLimitReached` when a 65th key would be added. `where` names the collection.
 */
export function setCollectionProperty(list: readonly Property[], key: string, value: string, where: string): Property[] {
  checkPropertyValue(key, value);
  const consumed = propertiesSize(list);
  const cost = propertyCost(key, value);
  if (consumed + cost > MAX_COLLECTION_PROPERTIES_SIZE) {
    throw new DispatchError(
      'common.NoSpaceForProperty',
      `No space for property "${key}" in ${where}: ${consumed} of ${MAX_COLLECTION_PROPERTIES_SIZE} bytes are used and it needs ${cost}`
    );
  }
  checkPropertyKey(key);
  if (list.length >= MAX_PROPERTIES_PER_ITEM && !list.some((p) => p.key === key)) {
    throw new DispatchError('common.PropertyLimitReached', `${capitalize(where)} already has ${MAX_PROPERTIES_PER_ITEM} properties; cannot add "${key}"`);
  }
  return withProperty(list, key, value);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function emptyArgument(what: string, collectionId: number): DispatchError {
  return new DispatchError('unique.EmptyArgument', `The list of ${what} for collection ${collectionId} is empty`);
}

export const setCollectionProperties: CallHandler<'unique.setCollectionProperties'> = async (ctx, { collectionId, properties }) => {
  if (!properties || properties.length === 0) throw emptyArgument('properties to set', collectionId);
  checkEntryCount(properties.length, 'properties');
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureOwnerOrAdmin(collection, ctx.signer);
  let list = collection.properties;
  for (const { key, value } of properties) {
    list = setCollectionProperty(list, key, value, `collection ${collectionId}`);
    ctx.emit('common', 'CollectionPropertySet', { collectionId, propertyKey: key });
  }
  collection.properties = list;
  await saveCollection(ctx, collection);
};

/** Deleting an absent key succeeds and still emits its event (the chain does so); at most 64 keys (DECISIONS 5). */
export const deleteCollectionProperties: CallHandler<'unique.deleteCollectionProperties'> = async (ctx, { collectionId, propertyKeys }) => {
  if (!propertyKeys || propertyKeys.length === 0) throw emptyArgument('property keys to delete', collectionId);
  checkEntryCount(propertyKeys.length, 'property keys');
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureOwnerOrAdmin(collection, ctx.signer);
  let list = collection.properties;
  for (const key of propertyKeys) {
    checkPropertyKey(key);
    list = withoutProperty(list, key);
    ctx.emit('common', 'CollectionPropertyDeleted', { collectionId, propertyKey: key });
  }
  collection.properties = list;
  await saveCollection(ctx, collection);
};
