// `unique.setTokenProperties` / `unique.deleteTokenProperties` (chain §5.9, §4), for NFTs and for
// ReFungible tokens (whose "token owner" is the holder of every piece).
import type { CallHandler, DispatchContext } from '../context';
import { DispatchError } from '../errors';
import { checkEntryCount } from '../properties';
import { type PropertyUpdate, writeTokenProperties } from './property-writer';
import { loadNftCollection, tokenLabel } from './shared';

async function updateTokenProperties(ctx: DispatchContext, collectionId: number, tokenId: number, updates: PropertyUpdate[], what: string): Promise<void> {
  if (updates.length === 0) {
    throw new DispatchError('unique.EmptyArgument', `No ${what} given for ${tokenLabel(collectionId, tokenId)}`);
  }
  checkEntryCount(updates.length, what);
  const collection = await loadNftCollection(ctx.state, collectionId, ['NFT', 'ReFungible']);
  const token = await ctx.state.get('tokens', [collectionId, tokenId]);
  const properties = await writeTokenProperties(ctx, {
    collection,
    tokenId,
    properties: token?.properties ?? [],
    mode: { kind: 'existing', exists: token !== undefined },
    updates
  });
  // The writer throws before returning when the token is missing.
  if (token) await ctx.state.put('tokens', { ...token, properties });
}

export const setTokenProperties: CallHandler<'unique.setTokenProperties'> = async (ctx, { collectionId, tokenId, properties }) => {
  await updateTokenProperties(ctx, collectionId, tokenId, properties.map(({ key, value }) => ({ key, value })), 'properties');
};

export const deleteTokenProperties: CallHandler<'unique.deleteTokenProperties'> = async (ctx, { collectionId, tokenId, propertyKeys }) => {
  await updateTokenProperties(ctx, collectionId, tokenId, propertyKeys.map((key) => ({ key, value: null })), 'property keys');
};
