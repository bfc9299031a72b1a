// One token as the gallery index keeps it: its name, thumbnail source, owner and attribute value
// texts, decoded once through the collection's schema (api/content) when the token row changes.
import { PARTIAL_OWNER } from '../../ledger/refungible/state';
import type { CollectionRecord, TokenRecord } from '../../ledger/types';
import { decodeTokenData } from '../content/index';

export interface GalleryEntry {
  tokenId: number;
  /** The token's name, or `Token <id>` when it has none (what the app shows and search matches). */
  name: string;
  /** Lower-case name, for search. */
  searchText: string;
  /** The preview image when the token has one, else its image; null without either. */
  image: string | null;
  /** The direct owner; null for a refungible token split between holders. */
  owner: string | null;
  /** Attribute name → its distinct value texts (a list attribute gives each of its values). */
  attributes: Map<string, string[]>;
}

/** A localized text ({_: text}), a plain value, or JSON of anything else, as one line of text. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object' && '_' in value) return valueText((value as { _: unknown })._);
  return JSON.stringify(value);
}

export async function galleryEntry(token: TokenRecord, collection: CollectionRecord, ipfsGateway: string): Promise<GalleryEntry> {
  const decoded = await decodeTokenData(token.properties, collection.properties, { ipfsGateway });
  const name = valueText(decoded.name) || `Token ${token.tokenId}`;
  const attributes = new Map<string, string[]>();
  for (const attribute of Object.values(decoded.attributes)) {
    const attributeName = valueText(attribute.name);
    if (!attributeName) continue;
    const values = (Array.isArray(attribute.value) ? attribute.value : [attribute.value]).map(valueText).filter((v) => v !== '');
    if (values.length) attributes.set(attributeName, [...new Set(values)]);
  }
  return {
    tokenId: token.tokenId,
    name,
    searchText: name.toLowerCase(),
    image: decoded.imagePreview?.fullUrl || decoded.image.fullUrl || null,
    owner: token.owner === PARTIAL_OWNER ? null : token.owner,
    attributes
  };
}
