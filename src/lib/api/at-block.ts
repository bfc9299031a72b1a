// `at` / `blockHashAt` on reads: the state as of that block (the real API's parameter; the 0.7.x
// client's topmost-owner read calls it `blockHashAt`). Checked before any work: one value, a block
// hash in form, a block of this ledger, inside the kept history; never the head's state instead.
import { z } from 'zod';
import type { Ledger } from '../ledger/chain/ledger';
import type { LedgerReads } from '../ledger/chain/reads';
import { fromZodError, validationError } from './errors';
import { boundedString } from './schemas';

const blockHash = (name: string) =>
  boundedString(name, 66).regex(/^0x[0-9a-fA-F]{64}$/, { error: `${name} must be a block hash: 0x and 64 hex digits` });

/** The parameters, as documented for every read (OpenAPI). */
export const atQuery = z.object({
  at: blockHash('at').optional().describe('Read the state as of this block (its hash); the head when absent'),
  blockHashAt: blockHash('blockHashAt').optional().describe('Alias of `at`')
});

/**
 * The reads a request asks for: the ledger's own (the head), or those of the block its `at` or
 * `blockHashAt` names; and the query without those parameters, for the route's own schema.
 */
export async function readsFor(ledger: Ledger, query: Record<string, string | string[]>): Promise<{ reads: LedgerReads; rest: Record<string, string | string[]> }> {
  const { at, blockHashAt, ...rest } = query;
  if (at === undefined && blockHashAt === undefined) return { reads: ledger, rest };
  const parsed = atQuery.safeParse({ at, blockHashAt });
  if (!parsed.success) throw fromZodError(parsed.error, 'query');
  const { at: a, blockHashAt: b } = parsed.data;
  if (a !== undefined && b !== undefined && a.toLowerCase() !== b.toLowerCase()) throw validationError('at and blockHashAt name different blocks: give one');
  return { reads: await ledger.atBlock((a ?? b)!), rest };
}
