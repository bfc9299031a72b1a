// `parsed`: the operation result a completed extrinsic reports, derived from its events as the
// real service does (reference section 5.2). Shapes are supersets of the specification's.
import { effectiveLimits } from '../ledger/access';
import type { RuleSet } from '../ledger/rules';
import type { QueryTx } from '../ledger/store';
import type { Call, ExtrinsicRecord, LedgerEvent } from '../ledger/types';
import { NO_STATE } from './no-state';
import { limitsJson } from './present/collection';
import { PIECES_SHAPED_CALLS, piecesParsed } from './routes/pieces';

function eventsOf(record: ExtrinsicRecord, section: string, method: string): Record<string, unknown>[] {
  return record.events.filter((e: LedgerEvent) => e.section === section && e.method === method).map((e) => e.data);
}

/** Whether parsedResult reads chain state for `record`; otherwise its answer comes from the record alone. */
export function parsedReadsState(record: ExtrinsicRecord): boolean {
  if (!record.isCompleted || record.isError) return false;
  const name = record.call.name;
  return PIECES_SHAPED_CALLS.has(name) || name === 'unique.setCollectionLimits' || name === 'utility.batch' || name === 'utility.batchAll';
}

/** The parsed result of a successful extrinsic, or undefined when it failed or is not in a block. */
export async function parsedResult(record: ExtrinsicRecord, stateTx: QueryTx, rules: RuleSet): Promise<unknown> {
  if (!record.isCompleted || record.isError) return undefined;
  // Calls parsedReadsState does not name get no state in every host, so a case that starts to read
  // fails its tests loudly instead of a host that skips the read transaction answering wrongly.
  const tx = parsedReadsState(record) ? stateTx : NO_STATE;
  // Fungible and refungible collections answer the same calls with amounts and pieces.
  const pieces = await piecesParsed(record, tx);
  if (pieces !== undefined) return pieces;
  const call = record.call;
  const first = (method: string) => eventsOf(record, 'common', method)[0] ?? {};
  switch (call.name) {
    case 'unique.createCollectionEx':
      return { collectionId: first('CollectionCreated').collectionId };
    case 'unique.destroyCollection':
      return { success: true, collectionId: call.args.collectionId };
    case 'unique.setCollectionProperties':
      // The specification's `{collectionId}` beside the real service's `{properties}`.
      return { collectionId: call.args.collectionId, properties: eventsOf(record, 'common', 'CollectionPropertySet').map(({ collectionId, propertyKey }) => ({ collectionId, propertyKey })) };
    case 'unique.deleteCollectionProperties':
      return { properties: eventsOf(record, 'common', 'CollectionPropertyDeleted').map(({ collectionId, propertyKey }) => ({ collectionId, propertyKey })) };
    case 'unique.setCollectionLimits': {
      const collection = await tx.get('collections', call.args.collectionId);
      return { collectionId: call.args.collectionId, limits: collection ? limitsJson(effectiveLimits(collection.limits, rules)) : null };
    }
    case 'unique.setCollectionPermissions':
      return { collectionId: call.args.collectionId };
    case 'unique.setTokenPropertyPermissions':
      return { propertyPermissions: eventsOf(record, 'common', 'PropertyPermissionSet').map(({ collectionId, propertyKey }) => ({ collectionId, propertyKey })) };
    case 'unique.setTransfersEnabledFlag':
      return { success: true, collectionId: call.args.collectionId, isEnabled: call.args.value };
    case 'unique.changeCollectionOwner':
      return { collectionId: call.args.collectionId, owner: call.args.newOwner };
    case 'unique.addCollectionAdmin':
      return { collectionId: call.args.collectionId, newAdmin: call.args.newAdmin };
    case 'unique.removeCollectionAdmin':
      return { collectionId: call.args.collectionId, admin: call.args.account };
    case 'unique.setCollectionSponsor':
      return { collectionId: call.args.collectionId, sponsor: call.args.newSponsor };
    case 'unique.confirmSponsorship':
      return { collectionId: call.args.collectionId, sponsor: record.signer };
    case 'unique.removeCollectionSponsor':
      return { collectionId: call.args.collectionId };
    case 'unique.addToAllowList':
    case 'unique.removeFromAllowList':
      return { collectionId: call.args.collectionId, address: call.args.address };
    case 'unique.createItem': {
      const created = first('ItemCreated');
      return { collectionId: created.collectionId, tokenId: created.tokenId };
    }
    case 'unique.createMultipleItemsEx':
      return eventsOf(record, 'common', 'ItemCreated').map(({ collectionId, tokenId }) => ({ collectionId, tokenId }));
    case 'unique.setTokenProperties':
      return { properties: eventsOf(record, 'common', 'TokenPropertySet').map(({ collectionId, tokenId, propertyKey }) => ({ collectionId, tokenId, propertyKey })) };
    case 'unique.deleteTokenProperties':
      return { properties: eventsOf(record, 'common', 'TokenPropertyDeleted').map(({ collectionId, tokenId, propertyKey }) => ({ collectionId, tokenId, propertyKey })) };
    case 'unique.transfer':
    case 'unique.transferFrom': {
      const moved = first('Transfer');
      const from = 'from' in call.args ? call.args.from : record.signer;
      return { collectionId: call.args.collectionId, tokenId: call.args.tokenId, from: moved.from ?? from, to: moved.to ?? call.args.to };
    }
    case 'unique.approve':
      return { collectionId: call.args.collectionId, tokenId: call.args.tokenId, spender: call.args.spender, isApprove: call.args.amount > 0n };
    case 'unique.burnItem':
    case 'unique.burnFrom': {
      const destroyed = first('ItemDestroyed');
      return { collectionId: call.args.collectionId, tokenId: call.args.tokenId, address: destroyed.owner ?? record.signer };
    }
    case 'balances.transferKeepAlive':
      return { from: record.signer, to: call.args.dest, amount: call.args.value.toString() };
    case 'utility.batch':
    case 'utility.batchAll':
      return { callResults: await batchCallResults(record, call.args.calls, tx, rules) };
  }
}

/** Each completed call of a batch with its own parsed: its events are those before its ItemCompleted. */
async function batchCallResults(record: ExtrinsicRecord, calls: Call[], tx: QueryTx, rules: RuleSet): Promise<unknown[]> {
  const results: unknown[] = [];
  let events: LedgerEvent[] = [];
  for (const event of record.events) {
    if (event.section !== 'utility' || event.method !== 'ItemCompleted') {
      events.push(event);
      continue;
    }
    const call: Call = calls[results.length];
    const [section, method]: string[] = call.name.split('.');
    results.push({ method: { section, method }, parsed: (await parsedResult({ ...record, call, events }, tx, rules)) ?? null });
    events = [];
  }
  return results;
}
