// stateQuery.get / execute scenarios of the real @unique-nft/sdk 0.7.7 client, run against both
// hosts (tests/contract/sdk-state-query.test.ts in Node, tests/e2e/sdk-v2-browser.test.ts in a
// page the service worker answers); sdk-state-query-expectations.ts holds the assertions.
import { ALICE, BOB, failure, plain, succeeded, type Clients, type Scenario } from './sdk-v2-scenarios';

const FRESH = '5CVMZoNZmsUV7xYp4gLB1GrRJm8RNw8ffwEDAfnrtev1azJn';

export const scenarios: Record<string, Scenario> = {
  async stateQueryConstant({ alice }) {
    return { price: await alice.stateQuery.get({ endpoint: 'consts', module: 'common', method: 'collectionCreationPrice' }) };
  },

  async stateQueryAccounts({ alice }) {
    succeeded('balance.transfer', await alice.balance.transfer.submitWaitResult({ address: ALICE, destination: BOB, amount: 1 } as never));
    const account = await alice.stateQuery.execute({ endpoint: 'query', module: 'system', method: 'account' }, { args: [ALICE] });
    const fresh = await alice.stateQuery.execute({ endpoint: 'query', module: 'system', method: 'account' }, { args: [FRESH] });
    const { nonce } = await alice.common.getNonce({ address: ALICE });
    const balance = await alice.balance.get({ address: ALICE });
    const number = await alice.stateQuery.get({ endpoint: 'query', module: 'system', method: 'number' });
    return { account, fresh, nonce, free: balance.freeBalance.raw, number };
  },

  async stateQueryCollection({ alice }) {
    const created = await alice.collection.create.submitWaitResult({
      address: ALICE,
      name: 'Qé',
      description: 'State',
      tokenPrefix: 'SQ',
      limits: { tokenLimit: 10 },
      permissions: { access: 'AllowList', nesting: { tokenOwner: true, restricted: [2, 1] } }
    } as never);
    const id = succeeded('collection.create', created).parsed!.collectionId;
    const args = (collectionId: number) => ({ args: [String(collectionId)] });
    return {
      id,
      collection: await alice.stateQuery.execute({ endpoint: 'query', module: 'common', method: 'collectionById' }, args(id)),
      missing: await alice.stateQuery.execute({ endpoint: 'query', module: 'common', method: 'collectionById' }, args(999_999)),
      created: await alice.stateQuery.get({ endpoint: 'query', module: 'common', method: 'createdCollectionCount' }),
      stats: await alice.collection.stats()
    };
  },

  async stateQueryTokens(c: Clients) {
    const { alice } = c;
    const created = await alice.collection.create.submitWaitResult({ address: ALICE, name: 'T', description: 'd', tokenPrefix: 'T' } as never);
    const id = succeeded('collection.create', created).parsed!.collectionId;
    const minted = await alice.token.create.submitWaitResult({ address: ALICE, collectionId: id, owner: BOB, data: { name: { _: 'x' } } } as never);
    const tokenId = succeeded('token.create', minted).parsed!.tokenId;
    const q = (method: string, args: unknown[]) => alice.stateQuery.execute({ endpoint: 'query', module: 'nonfungible', method }, { args: args as string[] });
    return plain({
      id,
      tokenId,
      tokenData: await q('tokenData', [id, tokenId]),
      missingToken: await q('tokenData', [id, 99]),
      owned: await q('owned', [id, { Substrate: BOB }, tokenId]),
      notOwned: await q('owned', [id, { substrate: ALICE }, tokenId]),
      balance: await q('accountBalance', [id, BOB]),
      minted: await q('tokensMinted', [id]),
      owner: (await alice.token.owner({ collectionId: id, tokenId })).owner
    });
  },

  async stateQueryRpc({ alice, bob }) {
    const created = await alice.collection.createV2.submitWaitResult({ address: ALICE, name: 'Rpc', description: 'v2', symbol: 'RPC', mode: 'ReFungible' } as never);
    const id = succeeded('collection.createV2', created).parsed!.collectionId;
    const minted = await alice.refungible.createToken.submitWaitResult({ address: ALICE, collectionId: id, amount: 10 } as never);
    const tokenId = succeeded('refungible.createToken', minted).parsed!.tokenId;
    const rpc = (method: string, args: unknown[]) => alice.stateQuery.execute({ endpoint: 'rpc', module: 'unique', method }, { args: args as string[] });
    const whole = { owner: await rpc('tokenOwner', [id, tokenId]), topmost: await rpc('topmostTokenOwner', [id, tokenId]) };
    succeeded('refungible.transferToken', await alice.refungible.transferToken.submitWaitResult({ address: ALICE, to: BOB, collectionId: id, tokenId, amount: 4 }));
    const split = { owner: await rpc('tokenOwner', [id, tokenId]), topmost: await rpc('topmostTokenOwner', [id, tokenId]), owners: await rpc('tokenOwners', [id, tokenId]) };
    const operator = (approve: boolean) =>
      alice.extrinsic.submitWaitResult({ address: ALICE, section: 'unique', method: 'setAllowanceForAll', args: { collectionId: id, operator: BOB, approve } } as never);
    const before = await rpc('allowanceForAll', [id, { Substrate: ALICE }, { Substrate: BOB }]);
    const approved = succeeded('unique.setAllowanceForAll', await operator(true));
    const after = await rpc('allowanceForAll', [id, { Substrate: ALICE }, { Substrate: BOB }]);
    // The operator moves Alice's pieces without any allowance of its own.
    const moved = await bob.refungible.transferToken.submitWaitResult({ address: BOB, from: ALICE, to: BOB, collectionId: id, tokenId, amount: 6 });
    succeeded('unique.setAllowanceForAll', await operator(false));
    return {
      id,
      collection: await rpc('collectionById', [id]),
      missing: await rpc('collectionById', [999_999]),
      lastTokenId: await rpc('lastTokenId', [id]),
      whole,
      split,
      operator: { before, after, off: await rpc('allowanceForAll', [id, ALICE, BOB]), event: approved.events?.find((e) => e.method === 'ApprovedForAll')?.data },
      moved: { isError: (moved as { isError?: boolean }).isError, bob: (await alice.refungible.getBalance({ collectionId: id, tokenId, address: BOB })).amount },
      getV2: await alice.collection.getV2({ collectionId: id })
    };
  },

  async stateQueryRefusals({ alice }) {
    const exec = (endpoint: string, module: string, method: string, args?: unknown[]) =>
      failure(alice.stateQuery.execute({ endpoint, module, method }, args === undefined ? undefined : { args: args as string[] }));
    return {
      endpoint: await exec('nowhere', 'system', 'account', []),
      module: await exec('query', 'nothing', 'account', []),
      method: await exec('query', 'system', 'nothing', []),
      arity: await exec('query', 'system', 'account', []),
      badArgument: await exec('query', 'system', 'account', ['nobody']),
      tooMany: await exec('query', 'system', 'account', Array.from({ length: 9 }, () => ALICE)),
      constantByPost: await exec('consts', 'common', 'collectionCreationPrice', []),
      getWithArgs: await failure(alice.stateQuery.get({ endpoint: 'query', module: 'system', method: 'account' }))
    };
  }
};

export async function runScenario(name: string, clients: Clients): Promise<Record<string, unknown>> {
  const scenario = scenarios[name];
  if (!scenario) throw new Error(`No scenario ${name}`);
  return plain(await scenario(clients));
}
