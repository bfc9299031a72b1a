// Deterministic fees: a weight part per call plus a length part per encoded byte. Tuned so a
// token transfer costs about 0.1 and creating a collection about 2.1 with its 2-unit deposit.
// Under `unique` rules the length part is the chain's `TransactionByteFee` (501/2 µUNQ a byte,
// primitives/common/src/constants.rs) and the weight part shrinks so a transfer still costs 0.1
// (the chain's WEIGHT_TO_FEE_COEFF targets 0.1 UNQ per transfer, length included).
import { COLLECTION_CREATION_PRICE, UNIT } from '../constants';
import { RULE_SETS, type RuleSet } from '../rules';
import type { Call } from '../types';

const MILLI = UNIT / 1000n;
/** Per byte of the signed extrinsic. */
export const BYTE_FEE = UNIT / 10_000n;
/** The chain's `TransactionByteFee`: 501 * MICROUNIQUE / 2. */
export const CHAIN_BYTE_FEE = (501n * (UNIT / 1_000_000n)) / 2n;
/** Weight scale under `unique` rules (per mille): a 164-byte transfer costs 0.1 within 0.001. */
const CHAIN_WEIGHT_PER_MILLE = 693n;
/** runtime/common/mod.rs `FeeCoefficientApplier`: property calls over 2048 bytes pay 1.79426 times. */
const LONG_PROPERTY_CALL_BYTES = 2048;
const PROPERTY_CALLS = new Set<Call['name']>([
  'unique.setTokenProperties',
  'unique.setTokenPropertyPermissions',
  'unique.deleteTokenProperties',
  'unique.setCollectionProperties',
  'unique.deleteCollectionProperties'
]);
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
      return call.args.items.reduce((n, item) => n + item.properties.length, call.args.properties?.length ?? 0);
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
    case 'utility.batch':
    case 'utility.batchAll':
      // The batch's own weight plus every call it dispatches.
      return call.args.calls.reduce((sum, inner) => sum + weightFee(inner), 50n * MILLI);
    default:
      return 50n * MILLI + items;
  }
}

/** Fee charged for including `call` in an extrinsic of `length` bytes. */
export function inclusionFee(call: Call, length: number, rules: RuleSet = RULE_SETS.spec): bigint {
  if (rules.name !== 'unique') return weightFee(call) + BigInt(length) * BYTE_FEE;
  const fee = (weightFee(call) * CHAIN_WEIGHT_PER_MILLE) / 1000n + BigInt(length) * CHAIN_BYTE_FEE;
  return length > LONG_PROPERTY_CALL_BYTES && PROPERTY_CALLS.has(call.name) ? (fee * 179_426n) / 100_000n : fee;
}

/** What the call costs the signer in all: the fee plus any deposit the call takes. */
export function totalCost(call: Call, length: number, rules: RuleSet = RULE_SETS.spec): bigint {
  return inclusionFee(call, length, rules) + deposits(call);
}

/** What dispatching `call` takes beyond the fee: the creation price of each collection it creates (inside a batch too). */
function deposits(call: Call): bigint {
  if (call.name === 'unique.createCollectionEx') return COLLECTION_CREATION_PRICE;
  if (call.name === 'utility.batch' || call.name === 'utility.batchAll') return call.args.calls.reduce((sum, inner) => sum + deposits(inner), 0n);
  return 0n;
}
