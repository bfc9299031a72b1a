// Deterministic fees: a weight part per call plus a length part per encoded byte. Tuned so a
// token transfer costs about 0.1 and creating a collection about 2.1 with its 2-unit deposit.
import { COLLECTION_CREATION_PRICE, UNIT } from '../constants';
import type { Call } from '../types';

const MILLI = UNIT / 1000n;
/** Per byte of the signed extrinsic. */
export const BYTE_FEE = UNIT / 10_000n;
/** Per property or permission written. */
const PER_ITEM = 3n * MILLI;

function countItems(call: Call): number {
  switch (call.name) {
    case 'unique.createCollectionEx':
      return call.args.data.properties.length + call.args.data.tokenPropertyPermissions.length;
    case 'unique.createItem':
    case 'unique.setCollectionProperties':
    case 'unique.setTokenProperties':
      return call.args.properties.length;
    case 'unique.createMultipleItemsEx':
    case 'unique.createMultipleItems':
      return call.args.items.reduce((n, item) => n + item.properties.length, 0);
    case 'unique.deleteCollectionProperties':
    case 'unique.deleteTokenProperties':
      return call.args.propertyKeys.length;
    case 'unique.setTokenPropertyPermissions':
      return call.args.propertyPermissions.length;
    default:
      return 0;
  }
}

/** The weight part of a call's fee. */
export function weightFee(call: Call): bigint {
  const items = BigInt(countItems(call)) * PER_ITEM;
  switch (call.name) {
    case 'unique.createCollectionEx':
      return 100n * MILLI + items;
    case 'unique.createItem':
      return 80n * MILLI + items;
    case 'unique.createMultipleItemsEx':
    case 'unique.createMultipleItems':
      return 80n * MILLI * BigInt(Math.max(1, call.args.items.length)) + items;
    case 'unique.transfer':
    case 'unique.transferFrom':
      return 85n * MILLI;
    case 'balances.transferKeepAlive':
      return 80n * MILLI;
    case 'unique.burnItem':
    case 'unique.burnFrom':
      return 70n * MILLI;
    case 'unique.approve':
      return 60n * MILLI;
    default:
      return 50n * MILLI + items;
  }
}

/** Fee charged for including `call` in an extrinsic of `length` bytes. */
export function inclusionFee(call: Call, length: number): bigint {
  return weightFee(call) + BigInt(length) * BYTE_FEE;
}

/** What the call costs the signer in all: the fee plus any deposit the call takes. */
export function totalCost(call: Call, length: number): bigint {
  const deposit = call.name === 'unique.createCollectionEx' ? COLLECTION_CREATION_PRICE : 0n;
  return inclusionFee(call, length) + deposit;
}
