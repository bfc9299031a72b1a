// Reads of fungible and refungible collections, as the real service answers them (`/fungible/*`,
// `/refungible/*`), and the holders among the accounts the app knows of: the REST API lists no
// holders, so the app asks for the balance of each account it has reason to know.
import type { RestClient } from './client';
import { distinctAddresses, holdersBySize, type Holder } from './pieces';
import type { Amount } from './types';

/** Most accounts asked for their balance on one screen (one request each). */
export const MAX_HOLDER_CANDIDATES = 40;

export function fungibleBalance(client: RestClient, collectionId: number, address: string): Promise<Amount> {
  return client.get('/fungible/balance', { collectionId, address });
}

/** The collection's total supply, in whole units (a decimal string). */
export async function fungibleSupply(client: RestClient, collectionId: number): Promise<string> {
  const answer = await client.get<{ amount: number | string }>('/fungible/total-pieces', { collectionId });
  return String(answer.amount);
}

export async function piecesOf(client: RestClient, collectionId: number, tokenId: number, address: string): Promise<bigint> {
  const answer = await client.get<{ amount: number | string }>('/refungible/tokens/balance', { collectionId, tokenId, address });
  return BigInt(answer.amount);
}

export async function totalPieces(client: RestClient, collectionId: number, tokenId: number): Promise<bigint> {
  const answer = await client.get<{ amount: number | string }>('/refungible/tokens/total-pieces', { collectionId, tokenId });
  return BigInt(answer.amount);
}

/** Holders among `candidates` (repeats and spellings of one account counted once), largest first. */
export async function knownHolders(
  candidates: readonly (string | null | undefined)[],
  amountOf: (address: string) => Promise<bigint>
): Promise<Holder[]> {
  const addresses = distinctAddresses(candidates, MAX_HOLDER_CANDIDATES);
  const amounts = await Promise.all(addresses.map(amountOf));
  return holdersBySize(addresses.map((address, i) => ({ address, amount: amounts[i] })));
}

/** A raw amount of the smallest unit (`Amount.raw`) as a bigint; 0 when the service left it out. */
export function rawOf(amount: Pick<Amount, 'raw'> | null | undefined): bigint {
  return amount && /^\d+$/.test(amount.raw) ? BigInt(amount.raw) : 0n;
}

/**
 * Accounts named in the recent extrinsics' results on `collectionId` (recipients, owners, senders):
 * the sandbox's own record of who received pieces. A remote service without that list (an Opalite
 * extension) gives none, and the holders shown are then the person's own accounts.
 */
export async function recentParticipants(client: RestClient, collectionId: number, limit = 50): Promise<string[]> {
  let list;
  try {
    list = await client.extrinsics({ limit });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const status of list) {
    const parsed = status.parsed as Record<string, unknown> | null | undefined;
    if (!parsed || parsed.collectionId !== collectionId) continue;
    for (const key of ['to', 'recipient', 'owner', 'from', 'sender', 'address']) {
      const value = parsed[key];
      if (typeof value === 'string') found.push(value);
    }
  }
  return found;
}
