// What tests/support/sdk-v2-scenarios.ts must observe, on either host: one entry per test, its
// scenario name and the assertions on the scenario's JSON (shared by the contract and e2e suites).
import { describe, expect, it } from 'vitest';
import { ALICE, BOB, COVER, TOKEN } from './sdk-v2-scenarios';

type Json = any;

export interface Expectation {
  group: string;
  title: string;
  scenario: string;
  check(r: Json): void;
}

const V2_TOKEN_KEYS = ['URI', 'URISuffix', 'customizing_overrides', 'overrides', 'royalties', 'schemaName', 'schemaVersion', 'tokenData'];
const byKey = (properties: Array<{ key: string; value: string }>) => Object.fromEntries(properties.map((p) => [p.key, p.value]));

export const expectations: Expectation[] = [
  {
    group: 'schema 2 collections',
    title: 'creates one and reads its info back with getV2 (CollectionWithInfoV2Dto)',
    scenario: 'v2Collection',
    check({ id, got }) {
      expect(got).toMatchObject({
        collectionId: id,
        owner: ALICE,
        mode: 'NFT',
        name: 'Schema two',
        description: 'A v2 collection',
        tokenPrefix: 'TWO',
        decimals: 0,
        parsingError: null,
        royalties: [],
        royaltiesParsingError: null,
        info: { schemaName: 'unique', schemaVersion: '2.0.0', cover_image: { url: COVER }, potential_attributes: [{ trait_type: 'color', values: ['red', 'blue'] }] },
        // The ERC721Metadata flag, as @unique-nft/schemas 2.x encodeCollection sets it (flags 64).
        flags: { foreign: false, erc721metadata: true }
      });
      // Stored as the library stores it: plain-text name and version, the info as one JSON property.
      const props = byKey(got.properties);
      expect(props.schemaName).toBe('unique');
      expect(props.schemaVersion).toBe('2.0.0');
      expect(JSON.parse(props.collectionInfo)).toEqual(got.info);
      expect(got.tokenPropertyPermissions.map((p: { key: string }) => p.key).sort()).toEqual([...V2_TOKEN_KEYS].sort());
      for (const p of got.tokenPropertyPermissions) expect(p.permission).toEqual({ mutable: true, collectionAdmin: true, tokenOwner: false });
    }
  },
  {
    group: 'schema 2 collections',
    title: 'takes encodeOptions: a default permission and overriding properties',
    scenario: 'v2CollectionOptions',
    check({ got }) {
      expect(got.tokenPrefix).toBe('OPT');
      expect(got.properties).toContainEqual(expect.objectContaining({ key: 'website', value: 'https://example.com' }));
      for (const p of got.tokenPropertyPermissions) expect(p.permission).toEqual({ mutable: false, collectionAdmin: true, tokenOwner: true });
    }
  },
  {
    group: 'schema 2 collections',
    title: 'refuses collection royalties and bad fields with a 400 ValidationError; null for a missing collection',
    scenario: 'v2CollectionRefusals',
    check(r) {
      expect(r.royalties).toMatchObject({ code: 'UN01004', name: 'ValidationError' });
      expect(r.royalties.message).toContain('Royalties are not supported in collections in v2');
      expect(r.version.message).toContain('2.x.x');
      expect(r.noSymbol.message).toContain('symbol');
      expect(r.script.message).toContain('url must be an http(s), ipfs:// or data:image URL');
      expect(r.missing).toBeNull();
    }
  },
  {
    group: 'schema 2 tokens',
    title: 'mints one with createV2 and reads it back with getV2 (TokenWithInfoV2Dto)',
    scenario: 'v2Token',
    check({ id, isError, parsed, got }) {
      expect(isError).toBe(false);
      expect(parsed).toEqual({ collectionId: id, tokenId: 1 });
      expect(got).toMatchObject({ ...TOKEN, schemaName: 'unique', schemaVersion: '2.0.0', collectionId: id, tokenId: 1, owner: BOB, parsingError: null, nestingParentToken: null });
      const props = byKey(got.properties);
      expect(JSON.parse(props.tokenData)).toMatchObject(TOKEN);
      expect(props.schemaName).toBe('unique');
      expect(props.royalties).toMatch(/^0x01/);
    }
  },
  {
    group: 'schema 2 tokens',
    title: 'mints several with createMultipleV2 (parsed is the array of ids)',
    scenario: 'v2TokenMultiple',
    check({ id, isError, parsed, first, second }) {
      expect(isError).toBe(false);
      expect(parsed).toEqual([
        { collectionId: id, tokenId: 1 },
        { collectionId: id, tokenId: 2 }
      ]);
      expect(first).toMatchObject({ name: 'A', image: 'https://example.com/a.png', owner: ALICE });
      expect(second).toMatchObject({ name: 'B', owner: BOB });
      expect(second.properties).toContainEqual(expect.objectContaining({ key: 'URI', value: 'https://example.com/b.json' }));
    }
  },
  {
    group: 'schema 2 tokens',
    title: 'fails on the chain in a v1 collection, whose property permissions do not name the v2 keys',
    scenario: 'v2TokenInV1Collection',
    check({ isError, error }) {
      expect(isError).toBe(true);
      expect(error?.details).toMatchObject({ section: 'common', name: 'NoPermission' });
    }
  },
  {
    group: 'schema 2 tokens',
    title: 'refuses bad token fields and answers 404 for a missing token, CollectionNotFoundError for a missing collection',
    scenario: 'v2TokenRefusals',
    check(r) {
      expect(r.badMedia).toMatchObject({ code: 'UN01004', name: 'ValidationError' });
      expect(r.badRoyalty.message).toContain('nobody');
      expect(r.empty.message).toContain('tokens must not be empty');
      expect(r.missing).toMatchObject({ name: 'NotFoundError', message: 'Token not found' });
      expect(r.missingCollection).toMatchObject({ name: 'CollectionNotFoundError' });
    }
  },
  {
    group: 'v1 and v2 readers of each other’s tokens',
    title: 'v1 reads of a v2 collection and token carry the decoding error, the properties and no schema',
    scenario: 'v1ReadsV2',
    check({ id, collection, token }) {
      expect(collection.schema).toBeUndefined();
      expect(collection.decodingError).toContain('schemaVersion must be "1.0.0", got "2.0.0"');
      expect(token).toMatchObject({ collectionId: id, tokenId: 1, owner: ALICE, attributes: {}, decodingError: 'unable to parse: collection schema was not provided' });
      expect(token.properties.map((p: { key: string }) => p.key)).toContain('tokenData');
    }
  },
  {
    group: 'v1 and v2 readers of each other’s tokens',
    title: 'v2 reads of a v1 collection and token convert them (originalSchemaVersion 1.0.0)',
    scenario: 'v2ReadsV1',
    check({ collection, token }) {
      expect(collection.parsingError).toBeNull();
      expect(collection.flags).toEqual({ foreign: false, erc721metadata: false });
      expect(collection.info).toEqual({
        schemaName: 'unique',
        schemaVersion: '2.0.0',
        originalSchemaVersion: '1.0.0',
        cover_image: { url: COVER },
        potential_attributes: [
          { trait_type: 'color', display_type: 'string', values: ['red', 'blue'] },
          { trait_type: 'tags', display_type: 'string' }
        ]
      });
      expect(token).toMatchObject({
        schemaName: 'unique',
        schemaVersion: '2.0.0',
        originalSchemaVersion: '1.0.0',
        name: 'Old',
        description: 'An old token',
        image: 'https://example.com/old.png',
        attributes: [
          { trait_type: 'color', value: 'blue' },
          { trait_type: 'tags', value: 'a' },
          { trait_type: 'tags', value: 'b' }
        ],
        media: { video: { type: 'video', url: 'https://example.com/old.mp4' } },
        royalties: [{ address: BOB, percent: 2.5 }],
        parsingError: null,
        owner: ALICE
      });
    }
  },
  {
    group: 'v1 and v2 readers of each other’s tokens',
    title: 'v2 reads of a collection and token without any schema report the library’s parsing errors',
    scenario: 'v2ReadsUnknown',
    check({ collection, token }) {
      expect(collection.parsingError).toBe('Unknown collection schema: "UNKNOWN"');
      expect(collection.info).toBeNull();
      expect(token.parsingError).toBe('Unknown token schema version - not Unique v2, v1 or v0 and not ERC721Metadata-compatible');
      expect(token.properties).toEqual([{ key: 'x', value: '1', valueHex: '0x31' }]);
    }
  },
  {
    group: 'collection.creation and collection.nextSponsored',
    title: 'creation is create under its deprecated name',
    scenario: 'creation',
    check({ isError, collection }) {
      expect(isError).toBe(false);
      expect(collection.name).toBe('Old name');
    }
  },
  {
    group: 'collection.creation and collection.nextSponsored',
    title: 'nextSponsored: null without a confirmed sponsor or token, 0 when the sponsor would pay, the blocks left after a sponsored transfer',
    scenario: 'nextSponsored',
    check(r) {
      // sponsorTransferTimeout 3: the sponsor pays again 3 blocks after the transfer's block.
      expect(r).toEqual({ withoutSponsor: null, unconfirmed: null, confirmed: 0, missingToken: null, afterTransfer: 3, oneBlockLater: 2 });
    }
  },
  {
    group: 'collection.creation and collection.nextSponsored',
    title: 'nextSponsored answers 404 for a missing collection and 400 for bad arguments',
    scenario: 'nextSponsoredRefusals',
    check(r) {
      expect(r.missing).toMatchObject({ name: 'CollectionNotFoundError', message: 'Collection not found' });
      expect(r.badAddress).toMatchObject({ code: 'UN01004', name: 'ValidationError' });
    }
  }
];

/** The expectations grouped for describe blocks, in order. */
export function byGroup(list: Expectation[] = expectations): Map<string, Expectation[]> {
  const groups = new Map<string, Expectation[]>();
  for (const e of list) groups.set(e.group, [...(groups.get(e.group) ?? []), e]);
  return groups;
}

/** One describe per group, one test per expectation, each running its scenario through `run`. */
export function describeExpectations(groups: Map<string, Expectation[]>, run: (scenario: string) => Promise<Json>): void {
  for (const [name, list] of groups) {
    describe(name, () => {
      for (const e of list) it(e.title, async () => e.check(await run(e.scenario)));
    });
  }
}
