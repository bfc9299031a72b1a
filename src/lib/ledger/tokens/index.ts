// Handlers of the token-level calls.
import type { CallHandler } from '../context';
import type { CallName } from '../types';

export const TOKEN_CALLS: Partial<{ [N in CallName]: CallHandler<N> }> = {};
