// The chain's integration tests, ported: a ledger under `--rules unique` in instant-block mode,
// driven as the chain's test helpers drive a node (signed extrinsics of the dev accounts, each in
// its own block, errors as `section.Name`), plus the reads those helpers make (balances, pieces,
// allowances, children).
import { fungibleAllowance, fungibleBalance, fungibleSupply } from '../../src/lib/ledger/fungible/state';
import { Ledger } from '../../src/lib/ledger/chain/ledger';
import { ownedTokens, pieceAllowance, readPieces } from '../../src/lib/ledger/refungible/state';
import { keyOf } from '../../src/lib/ledger/testing/chain-kit';
import { MemoryStore } from '../../src/lib/ledger/testing/memory-store';
import { tokenNestingAddress } from '../../src/lib/codec/nesting';
import { tokenExists } from '../../src/lib/ledger/pieces';
import { childRefsOf } from '../../src/lib/ledger/tokens/nesting';
import { allowanceForAll } from '../../src/lib/ledger/tokens/allowance-for-all';
import type { Address, Call, CallArgs, CallName, CollectionRecord, CreateCollectionData, ExtrinsicRecord, LedgerEvent, TokenRecord, TokenRef } from '../../src/lib/ledger/types';
import { loadAccount } from '../../src/lib/ledger/balances';
import { TransactionError } from '../../src/lib/ledger/chain/errors';

export const U128_MAX = (1n << 128n) - 1n;
export const MAX_REFUNGIBLE_PIECES = 1_000_000_000_000_000_000_000n;

/** A dev account: its seed (who signs) and its address. */
export interface Account {
  seed: string;
  address: Address;
}

const account = (seed: string): Account => ({ seed, address: keyOf(seed).address });

export const alice = account('//Alice');
export const bob = account('//Bob');
export const charlie = account('//Charlie');
export const dave = account('//Dave');
export const eve = account('//Eve');
export const ferdie = account('//Ferdie');

/** The Ethereum account of the chain's tests. */
export const ETH = '0x67fb3503a61b284dc83fa96dceec4192db47dc7c';
export const nestingAccount = (ref: TokenRef) => tokenNestingAddress(ref.collectionId, ref.tokenId);

export class ChainError extends Error {}

export class Chain {
  private constructor(readonly ledger: Ledger) {}

  static async start(): Promise<Chain> {
    return new Chain(await Ledger.open({ store: new MemoryStore(), rules: 'unique', blockMode: { kind: 'instant' }, soleWriter: true }));
  }

  /** Sign and submit `name(args)`; resolves with the included extrinsic, failed or not. */
  async submit<N extends CallName>(who: Account, name: N, args: CallArgs[N]): Promise<ExtrinsicRecord> {
    const { key } = keyOf(who.seed);
    const submitted = await this.ledger.signAndSubmit(who.address, { name, args } as Call, key);
    return submitted.included;
  }

  /** Like the chain's helpers: the events of a successful extrinsic, or a ChainError naming `section.Name`. */
  async ok<N extends CallName>(who: Account, name: N, args: CallArgs[N]): Promise<LedgerEvent[]> {
    const record = await this.submit(who, name, args);
    if (record.isError) throw new ChainError(`${record.error?.section}.${record.error?.name}: ${record.error?.message}`);
    return record.events;
  }

  async createCollection(owner: Account, data: Partial<CreateCollectionData> & Pick<CreateCollectionData, 'mode'>): Promise<number> {
    const events = await this.ok(owner, 'unique.createCollectionEx', {
      data: { decimals: 0, name: 'test', description: 'test', tokenPrefix: 'test', tokenPropertyPermissions: [], properties: [], adminList: [], ...data }
    });
    return events.find((e) => e.method === 'CollectionCreated')!.data.collectionId as number;
  }

  ftBalance(collectionId: number, owner: Address): Promise<bigint> {
    return this.ledger.read((tx) => fungibleBalance(tx, collectionId, owner));
  }
  ftSupply(collectionId: number): Promise<bigint> {
    return this.ledger.read((tx) => fungibleSupply(tx, collectionId));
  }
  ftAllowance(collectionId: number, owner: Address, spender: Address): Promise<bigint> {
    return this.ledger.read((tx) => fungibleAllowance(tx, collectionId, owner, spender));
  }
  async rftBalance(collectionId: number, tokenId: number, owner: Address): Promise<bigint> {
    return (await this.ledger.read((tx) => readPieces(tx, collectionId, tokenId)))?.balances[owner] ?? 0n;
  }
  async rftTotalPieces(collectionId: number, tokenId: number): Promise<bigint | null> {
    return (await this.ledger.read((tx) => readPieces(tx, collectionId, tokenId)))?.total ?? null;
  }
  /** The chain's `tokenOwners` (at most 10 holders). */
  async rftOwners(collectionId: number, tokenId: number): Promise<Address[]> {
    return Object.keys((await this.ledger.read((tx) => readPieces(tx, collectionId, tokenId)))?.balances ?? {}).slice(0, 10);
  }
  rftAllowance(collectionId: number, tokenId: number, owner: Address, spender: Address): Promise<bigint> {
    return this.ledger.read((tx) => pieceAllowance(tx, collectionId, tokenId, owner, spender));
  }
  rftAccountTokens(collectionId: number, owner: Address): Promise<number[]> {
    return this.ledger.read((tx) => ownedTokens(tx, collectionId, owner));
  }
  /** The chain's `tokenExists`: a Fungible collection's token 0 always exists. */
  tokenExists(collectionId: number, tokenId: number): Promise<boolean> {
    return this.ledger.read((tx) => tokenExists(tx, collectionId, tokenId));
  }
  async lastTokenId(collectionId: number): Promise<number> {
    return (await this.ledger.read((tx) => tx.get('collections', collectionId)))!.tokensMinted;
  }
  children(ref: TokenRef): Promise<TokenRef[]> {
    return this.ledger.read((tx) => childRefsOf(tx, ref));
  }
  /** The chain's `allowanceForAll` RPC: is `operator` allowed every token of `owner` in the collection? */
  allowanceForAll(collectionId: number, owner: Address, operator: Address): Promise<boolean> {
    return this.ledger.read((tx) => allowanceForAll(tx, collectionId, owner, operator));
  }
  async tokenOwner(collectionId: number, tokenId: number): Promise<Address | undefined> {
    return (await this.ledger.read((tx) => tx.get('tokens', [collectionId, tokenId])))?.owner;
  }
}

/** The `section.Name` a promise of `Chain.ok` fails with. */
export async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof ChainError) return e.message.split(':')[0];
    throw e;
  }
  throw new Error('expected the extrinsic to fail');
}

/** The chain test helpers' FT calls (`helper.ft.*`): the collection's one token is id 0. */
export const ft = {
  mint: (chain: Chain, signer: Account, collectionId: number, amount: bigint, owner: Address = signer.address) =>
    chain.ok(signer, 'unique.createItem', { collectionId, owner, properties: [], kind: 'Fungible', amount }),
  transfer: (chain: Chain, signer: Account, collectionId: number, to: Address, amount: bigint) =>
    chain.ok(signer, 'unique.transfer', { to, collectionId, tokenId: 0, value: amount }),
  transferFrom: (chain: Chain, signer: Account, collectionId: number, from: Address, to: Address, amount: bigint) =>
    chain.ok(signer, 'unique.transferFrom', { from, to, collectionId, tokenId: 0, value: amount }),
  approve: (chain: Chain, signer: Account, collectionId: number, spender: Address, amount: bigint) =>
    chain.ok(signer, 'unique.approve', { spender, collectionId, tokenId: 0, amount }),
  burn: (chain: Chain, signer: Account, collectionId: number, amount: bigint) =>
    chain.ok(signer, 'unique.burnItem', { collectionId, tokenId: 0, value: amount }),
  burnFrom: (chain: Chain, signer: Account, collectionId: number, from: Address, amount: bigint) =>
    chain.ok(signer, 'unique.burnFrom', { collectionId, from, tokenId: 0, value: amount })
};

/** The chain test helpers' RFT calls (`helper.rft.*`, `token.*`). */
export const rft = {
  async mint(chain: Chain, signer: Account, collectionId: number, pieces: bigint, owner: Address = signer.address, properties: CallArgs['unique.createItem']['properties'] = []) {
    const events = await chain.ok(signer, 'unique.createItem', { collectionId, owner, properties, kind: 'ReFungible', amount: pieces });
    const created = events.find((e) => e.method === 'ItemCreated');
    return { collectionId, tokenId: (created?.data.tokenId as number | undefined) ?? (await chain.lastTokenId(collectionId)) };
  },
  transfer: (chain: Chain, signer: Account, token: TokenRef, to: Address, amount = 1n) =>
    chain.ok(signer, 'unique.transfer', { to, collectionId: token.collectionId, tokenId: token.tokenId, value: amount }),
  transferFrom: (chain: Chain, signer: Account, token: TokenRef, from: Address, to: Address, amount = 1n) =>
    chain.ok(signer, 'unique.transferFrom', { from, to, collectionId: token.collectionId, tokenId: token.tokenId, value: amount }),
  approve: (chain: Chain, signer: Account, token: TokenRef, spender: Address, amount = 1n) =>
    chain.ok(signer, 'unique.approve', { spender, collectionId: token.collectionId, tokenId: token.tokenId, amount }),
  burn: (chain: Chain, signer: Account, token: TokenRef, amount = 1n) =>
    chain.ok(signer, 'unique.burnItem', { collectionId: token.collectionId, tokenId: token.tokenId, value: amount }),
  burnFrom: (chain: Chain, signer: Account, token: TokenRef, from: Address, amount = 1n) =>
    chain.ok(signer, 'unique.burnFrom', { collectionId: token.collectionId, from, tokenId: token.tokenId, value: amount }),
  repartition: (chain: Chain, signer: Account, token: TokenRef, amount: bigint) =>
    chain.ok(signer, 'unique.repartition', { collectionId: token.collectionId, tokenId: token.tokenId, amount })
};

/** The chain test helpers' NFT calls (`helper.nft.*`). */
export const nft = {
  async mint(chain: Chain, signer: Account, collectionId: number, owner: Address = signer.address): Promise<TokenRef> {
    const events = await chain.ok(signer, 'unique.createItem', { collectionId, owner, properties: [] });
    return { collectionId, tokenId: events.find((e) => e.method === 'ItemCreated')!.data.tokenId as number };
  },
  transfer: (chain: Chain, signer: Account, token: TokenRef, to: Address) =>
    chain.ok(signer, 'unique.transfer', { to, collectionId: token.collectionId, tokenId: token.tokenId, value: 1n }),
  burn: (chain: Chain, signer: Account, token: TokenRef) =>
    chain.ok(signer, 'unique.burnItem', { collectionId: token.collectionId, tokenId: token.tokenId, value: 1n })
};

/** An NFT collection with `nesting: {tokenOwner: true}` and a token of Alice's in it, its nesting address `target`. */
export async function nestingTarget(chain: Chain): Promise<{ collection: number; targetToken: TokenRef; target: Address }> {
  const collection = await chain.createCollection(alice, { mode: 'NFT', permissions: { nesting: { tokenOwner: true } } });
  const targetToken = await nft.mint(chain, alice, collection);
  return { collection, targetToken, target: nestingAccount(targetToken) };
}

/**
 * unnest.test.ts `ownerOrAdminUnnestCases` for an amount nested in an NFT: Charlie owns the NFT;
 * the nested collection's owner (Alice) or admin (Bob) moves or burns it out in two steps, and
 * the NFT lists the child until the last of it is gone.
 */
export async function ownerOrAdminUnnest(
  chain: Chain,
  sender: 'owner' | 'admin',
  op: 'transfer' | 'burn',
  nested: { collectionId: number; tokenId: number; balance: (holder: Address) => Promise<bigint>; mint: (amount: bigint, to: Address) => Promise<unknown> }
): Promise<void> {
  const unnester = sender === 'owner' ? alice : bob;
  const collectionNFT = await chain.createCollection(alice, { mode: 'NFT' });
  await chain.ok(alice, 'unique.setCollectionPermissions', { collectionId: collectionNFT, permissions: { nesting: { tokenOwner: true } } });
  await chain.ok(alice, 'unique.addCollectionAdmin', { collectionId: nested.collectionId, newAdmin: bob.address });
  const targetNft = await nft.mint(chain, alice, collectionNFT, charlie.address);
  const target = nestingAccount(targetNft);
  const ref = { collectionId: nested.collectionId, tokenId: nested.tokenId };
  await nested.mint(5n, charlie.address);
  const expectState = async (balance: bigint, childPresent: boolean) => {
    if ((await nested.balance(target)) !== balance) throw new Error(`nested balance is not ${balance}`);
    const children = await chain.children(targetNft);
    const expected = childPresent ? [ref] : [];
    if (JSON.stringify(children) !== JSON.stringify(expected)) throw new Error(`children ${JSON.stringify(children)}, expected ${JSON.stringify(expected)}`);
  };
  const step = async (amount: bigint, nestedAfter: boolean) => {
    const before = await nested.balance(target);
    if (op === 'transfer') {
      const bobBefore = await nested.balance(bob.address);
      await chain.ok(unnester, 'unique.transferFrom', { from: target, to: bob.address, ...ref, value: amount });
      if ((await nested.balance(bob.address)) !== bobBefore + amount) throw new Error('Bob did not receive the amount');
    } else {
      await chain.ok(unnester, 'unique.burnFrom', { collectionId: ref.collectionId, from: target, tokenId: ref.tokenId, value: amount });
    }
    await expectState(before - amount, nestedAfter);
  };
  await chain.ok(charlie, 'unique.transfer', { to: target, ...ref, value: 5n });
  await expectState(5n, true);
  await step(2n, true);
  await step(3n, false);
}

// Additions for the NFT, allowance, nesting and sponsoring ports.

/** An NFT's record (owner, properties, approved spender), undefined when it does not exist. */
export function nftToken(chain: Chain, ref: TokenRef): Promise<TokenRecord | undefined> {
  return chain.ledger.read((tx) => tx.get('tokens', [ref.collectionId, ref.tokenId]));
}

/** A collection's record, undefined when it does not exist. */
export function collectionOf(chain: Chain, collectionId: number): Promise<CollectionRecord | undefined> {
  return chain.ledger.read((tx) => tx.get('collections', collectionId));
}

/** An account's free native balance. */
export async function freeBalance(chain: Chain, address: Address): Promise<bigint> {
  return (await chain.ledger.read((tx) => loadAccount(tx, address))).free;
}

/** An account whose seed is not a dev account's: it starts with no funds. */
export const freshAccount = (seed: string): Account => account(seed);

/** Submit a call the chain refuses before inclusion ("Verification Error", fees): the refusal's message. */
export async function refusedBeforeInclusion<N extends CallName>(chain: Chain, who: Account, name: N, args: CallArgs[N]): Promise<string> {
  const { key } = keyOf(who.seed);
  const refusal = await chain.ledger.signAndSubmit(who.address, { name, args } as Call, key).then(
    () => null,
    (e: unknown) => e
  );
  if (!(refusal instanceof TransactionError)) throw new Error('expected the chain to refuse the call before inclusion');
  return `${refusal.kind}: ${refusal.message}`;
}

/** The chain test helpers' NFT allowance calls (`token.approve`, `token.transferFrom`, `token.burnFrom`). */
export const nftAllowance = {
  approve: (chain: Chain, signer: Account, token: TokenRef, spender: Address, amount = 1n) =>
    chain.ok(signer, 'unique.approve', { spender, collectionId: token.collectionId, tokenId: token.tokenId, amount }),
  transferFrom: (chain: Chain, signer: Account, token: TokenRef, from: Address, to: Address, value = 1n) =>
    chain.ok(signer, 'unique.transferFrom', { from, to, collectionId: token.collectionId, tokenId: token.tokenId, value }),
  burnFrom: (chain: Chain, signer: Account, token: TokenRef, from: Address, value = 1n) =>
    chain.ok(signer, 'unique.burnFrom', { collectionId: token.collectionId, from, tokenId: token.tokenId, value }),
  /** The chain's `allowance` RPC for an NFT: 1 when `spender` is the approved one. */
  async allowance(chain: Chain, token: TokenRef, owner: Address, spender: Address): Promise<bigint> {
    const record = await nftToken(chain, token);
    return record && record.owner === owner && record.approved === spender ? 1n : 0n;
  }
};
