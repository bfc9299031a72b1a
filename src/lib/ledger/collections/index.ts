// Handlers of the collection-level calls.
import type { CallHandler } from '../context';
import type { CallName } from '../types';

export const COLLECTION_CALLS: Partial<{ [N in CallName]: CallHandler<N> }> = {};
