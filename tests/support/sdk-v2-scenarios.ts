// Schema-2 and collection-extras scenarios of the real @unique-nft/sdk 0.7.7 client, written once
// and run against both hosts: in Node by tests/contract/sdk-v2.test.ts, and inside a page
// answered by the service worker by tests/e2e/sdk-v2-browser.test.ts. Each returns what it
// observed as plain JSON; tests/support/sdk-v2-expectations.ts holds the assertions.
import type Sdk from '@unique-nft/sdk';

export const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
export const COVER = 'https://example.com/cover.png';

export interface Clients {
  alice: Sdk;
  bob: Sdk;
}

export type Scenario = (clients: Clients) => Promise<Record<string, unknown>>;

/** The status object carries isError (the 0.7.7 typings omit it). */
export const isError = (result: unknown) => (result as { isError?: boolean }).isError;

/** A step that must succeed on chain; throws with the chain error otherwise. */
export function succeeded<T>(what: string, result: T): T {
  if (isError(result)) throw new Error(`${what} failed on chain: ${JSON.stringify((result as { error?: unknown }).error)}`);
  return result;
}

/** The ApiError the client throws for a non-2xx answer, as plain JSON; throws if the call succeeded. */
export async function failure(promise: Promise<unknown>): Promise<{ code: string; name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const { code, name, message } = error as { code: string; name: string; message: string };
    return { code, name, message };
  }
  throw new Error('expected the request to fail');
}

/** JSON-safe copy, so a result never carries a class (what page.evaluate hands back anyway). */
export const plain = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

export const TOKEN = {
  name: 'First',
  description: 'The first v2 token',
  image: 'https://example.com/1.png',
  attributes: [
    { trait_type: 'color', value: 'red' },
    { trait_type: 'power', value: 7 }
  ],
  media: { clip: { type: 'video', url: 'https://example.com/1.mp4' } },
  royalties: [{ address: BOB, percent: 5 }]
};

export const V1_SCHEMA = {
  schemaName: 'unique',
  schemaVersion: '1.0.0',
  coverPicture: { url: COVER },
  image: { urlTemplate: 'https://example.com/{infix}' },
  video: { urlTemplate: 'https://example.com/{infix}' },
  attributesSchemaVersion: '1.0.0',
  attributesSchema: {
    '0': { name: { _: 'color' }, type: 'string', enumValues: { '0': { _: 'red' }, '1': { _: 'blue' } } },
    '1': { name: { _: 'tags' }, type: 'string', isArray: true }
  }
};

async function collectionV2({ alice }: Clients, extra: Record<string, unknown> = {}): Promise<number> {
  const result = await alice.collection.createV2.submitWaitResult({
    address: ALICE,
    name: 'Schema two',
    description: 'A v2 collection',
    symbol: 'TWO',
    cover_image: { url: COVER },
    potential_attributes: [{ trait_type: 'color', values: ['red', 'blue'] }],
    ...extra
  } as never);
  return succeeded('collection.createV2', result).parsed!.collectionId;
}

async function collectionV1({ alice }: Clients, extra: Record<string, unknown> = {}): Promise<number> {
  const result = await alice.collection.create.submitWaitResult({ address: ALICE, name: 'V1', description: 'A v1 collection', tokenPrefix: 'ONE', ...extra } as never);
  return succeeded('collection.create', result).parsed!.collectionId;
}

export const scenarios: Record<string, Scenario> = {
  async v2Collection(c) {
    const id = await collectionV2(c);
    return { id, got: await c.alice.collection.getV2({ collectionId: id }) };
  },

  async v2CollectionOptions(c) {
    const id = await collectionV2(c, {
      tokenPrefix: 'OPT',
      encodeOptions: { defaultPermission: { mutable: false, collectionAdmin: true, tokenOwner: true }, overwriteProperties: [{ key: 'website', value: 'https://example.com' }] }
    });
    return { id, got: await c.alice.collection.getV2({ collectionId: id }) };
  },

  async v2CollectionRefusals({ alice }) {
    const base = { address: ALICE, name: 'R', description: 'd', symbol: 'R' };
    return {
      royalties: await failure(alice.collection.createV2.build({ ...base, royalties: [{ address: ALICE, percent: 1 }] } as never)),
      version: await failure(alice.collection.createV2.build({ ...base, schemaVersion: '1.0.0' } as never)),
      noSymbol: await failure(alice.collection.createV2.build({ address: ALICE, name: 'R', description: 'd' } as never)),
      script: await failure(alice.collection.createV2.build({ ...base, cover_image: { url: 'javascript:alert(1)' } } as never)),
      missing: await alice.collection.getV2({ collectionId: 999_999 })
    };
  },

  async v2Token(c) {
    const id = await collectionV2(c);
    const minted = await c.alice.token.createV2.submitWaitResult({ address: ALICE, collectionId: id, owner: BOB, ...TOKEN } as never);
    return { id, isError: isError(minted), parsed: minted.parsed, got: await c.alice.token.getV2({ collectionId: id, tokenId: 1 }) };
  },

  async v2TokenMultiple(c) {
    const id = await collectionV2(c);
    const result = await c.alice.token.createMultipleV2.submitWaitResult({
      address: ALICE,
      collectionId: id,
      tokens: [{ name: 'A', image: 'https://example.com/a.png' }, { name: 'B', owner: BOB, encodeOptions: { URI: 'https://example.com/b.json' } }]
    } as never);
    return {
      id,
      isError: isError(result),
      parsed: result.parsed,
      first: await c.alice.token.getV2({ collectionId: id, tokenId: 1 }),
      second: await c.alice.token.getV2({ collectionId: id, tokenId: 2 })
    };
  },

  async v2TokenInV1Collection(c) {
    const id = await collectionV1(c);
    const result = await c.alice.token.createV2.submitWaitResult({ address: ALICE, collectionId: id, name: 'x' } as never);
    return { isError: isError(result), error: result.error };
  },

  async v2TokenRefusals(c) {
    const id = await collectionV2(c);
    const { alice } = c;
    return {
      badMedia: await failure(alice.token.createV2.build({ address: ALICE, collectionId: id, media: { x: { type: 'hologram', url: 'https://e/x' } } } as never)),
      badRoyalty: await failure(alice.token.createV2.build({ address: ALICE, collectionId: id, royalties: [{ address: 'nobody', percent: 5 }] } as never)),
      empty: await failure(alice.token.createMultipleV2.build({ address: ALICE, collectionId: id, tokens: [] } as never)),
      missing: await failure(alice.token.getV2({ collectionId: id, tokenId: 77 })),
      missingCollection: await failure(alice.token.getV2({ collectionId: id + 1000, tokenId: 1 }))
    };
  },

  async v1ReadsV2(c) {
    const id = await collectionV2(c);
    succeeded('token.createV2', await c.alice.token.createV2.submitWaitResult({ address: ALICE, collectionId: id, ...TOKEN } as never));
    return { id, collection: await c.alice.collection.get({ collectionId: id }), token: await c.alice.token.get({ collectionId: id, tokenId: 1 }) };
  },

  async v2ReadsV1(c) {
    const id = await collectionV1(c, { schema: V1_SCHEMA });
    const minted = await c.alice.token.create.submitWaitResult({
      address: ALICE,
      collectionId: id,
      data: {
        name: { _: 'Old' },
        description: { _: 'An old token' },
        image: { urlInfix: 'old.png' },
        video: { url: 'https://example.com/old.mp4' },
        encodedAttributes: { '0': 1, '1': [{ _: 'a' }, { _: 'b' }] },
        royalties: [{ address: BOB, value: 250, decimals: 4 }]
      }
    } as never);
    const tokenId = succeeded('token.create', minted).parsed!.tokenId;
    return { id, collection: await c.alice.collection.getV2({ collectionId: id }), token: await c.alice.token.getV2({ collectionId: id, tokenId }) };
  },

  async v2ReadsUnknown(c) {
    const id = await collectionV1(c, {
      properties: [{ key: 'schemaName', value: 'custom' }],
      tokenPropertyPermissions: [{ key: 'x', permission: { mutable: true, collectionAdmin: true, tokenOwner: true } }]
    });
    const minted = await c.alice.token.create.submitWaitResult({ address: ALICE, collectionId: id, properties: [{ key: 'x', value: '1' }] } as never);
    const tokenId = succeeded('token.create', minted).parsed!.tokenId;
    return { collection: await c.alice.collection.getV2({ collectionId: id }), token: await c.alice.token.getV2({ collectionId: id, tokenId }) };
  },

  async creation({ alice }) {
    const result = await alice.collection.creation.submitWaitResult({ address: ALICE, name: 'Old name', description: 'd', tokenPrefix: 'OLD' } as never);
    return { isError: isError(result), collection: await alice.collection.get({ collectionId: result.parsed!.collectionId }) };
  },

  async nextSponsored(c) {
    const { alice, bob } = c;
    const id = await collectionV1(c, { limits: { sponsorTransferTimeout: 3 } });
    const minted = await alice.token.create.submitWaitResult({ address: ALICE, collectionId: id, data: { name: { _: 't' } } } as never);
    const tokenId = succeeded('token.create', minted).parsed!.tokenId;
    const ask = async () => (await alice.collection.nextSponsored({ collectionId: id, address: ALICE, tokenId })).blockNumber;
    const withoutSponsor = await ask();
    succeeded('setSponsorship', await alice.collection.setSponsorship.submitWaitResult({ address: ALICE, collectionId: id, newSponsor: BOB } as never));
    const unconfirmed = await ask();
    succeeded('confirmSponsorship', await bob.collection.confirmSponsorship.submitWaitResult({ address: BOB, collectionId: id } as never));
    const confirmed = await ask();
    const missingToken = (await alice.collection.nextSponsored({ collectionId: id, address: ALICE, tokenId: 99 })).blockNumber;
    succeeded('token.transfer', await alice.token.transfer.submitWaitResult({ address: ALICE, collectionId: id, tokenId, to: BOB } as never));
    const afterTransfer = await ask();
    succeeded('balance.transfer', await alice.balance.transfer.submitWaitResult({ address: ALICE, destination: BOB, amount: 1 } as never));
    const oneBlockLater = await ask();
    return { withoutSponsor, unconfirmed, confirmed, missingToken, afterTransfer, oneBlockLater };
  },

  async nextSponsoredRefusals({ alice }) {
    return {
      missing: await failure(alice.collection.nextSponsored({ collectionId: 999_999, address: ALICE, tokenId: 1 })),
      badAddress: await failure(alice.collection.nextSponsored({ collectionId: 1, address: 'nobody', tokenId: 1 }))
    };
  }
};

/** Run one scenario and hand back plain JSON. */
export async function runScenario(name: string, clients: Clients): Promise<Record<string, unknown>> {
  const scenario = scenarios[name];
  if (!scenario) throw new Error(`No scenario ${name}`);
  return plain(await scenario(clients));
}
