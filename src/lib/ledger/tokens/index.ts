// Handlers of the token-level calls, and the token read helpers of the REST layer.
import type { CallHandler } from '../context';
import type { CallName } from '../types';
import { setAllowanceForAll } from './allowance-for-all';
import { approve } from './approve';
import { burnFrom, burnItem } from './burn';
import { createItem, createMultipleItems, createMultipleItemsEx } from './mint';
import { deleteTokenProperties, setTokenProperties } from './token-properties';
import { transfer, transferFrom } from './transfer';

export const TOKEN_CALLS: Partial<{ [N in CallName]: CallHandler<N> }> = {
  'unique.createItem': createItem,
  'unique.createMultipleItemsEx': createMultipleItemsEx,
  'unique.createMultipleItems': createMultipleItems,
  'unique.setTokenProperties': setTokenProperties,
  'unique.deleteTokenProperties': deleteTokenProperties,
  'unique.transfer': transfer,
  'unique.transferFrom': transferFrom,
  'unique.approve': approve,
  'unique.setAllowanceForAll': setAllowanceForAll,
  'unique.burnItem': burnItem,
  'unique.burnFrom': burnFrom
};

export {
  type BundleNode,
  type NestingBudget,
  bundleRoot,
  bundleTree,
  childrenOf,
  childRefsOf,
  isBundle,
  parentOf,
  parentWithAddress,
  topmostOwner,
  walkToTopmostOwner,
  checkNesting
} from './nesting';
export { tokenNestingAddress, parseNestingAddress, isCollectionAddress } from './addresses';
export { mintTokens } from './mint';
export { writeTokenProperties, type PropertyUpdate, type WriterMode } from './property-writer';
export { checkAllowed, transferToken } from './transfer';
export { burnToken } from './burn';
export { allowanceForAll } from './allowance-for-all';
