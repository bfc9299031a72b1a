// Native balances: free balance and nonce per account.
import type { CallHandler } from './context';
import { DispatchError, ensure } from './errors';
import type { StateTx } from './store';
import type { AccountRecord, Address } from './types';

/** Fees and deposits go here (the chain's Treasury). */
export const TREASURY: Address = '5EYCAe5ijiYfyeZ2JJCGq56LmPyNRAKzpG4QkoQkkQNB5e6Z';

export async function loadAccount(state: StateTx, address: Address): Promise<AccountRecord> {
  return (await state.get('accounts', address)) ?? { address, free: 0n, nonce: 0 };
}

/** Take `amount` from `address`, or fail with the chain error `error`. */
export async function withdraw(state: StateTx, address: Address, amount: bigint, error = 'balances.InsufficientBalance', message?: string): Promise<void> {
  const account = await loadAccount(state, address);
  if (account.free < amount) throw new DispatchError(error, message);
  await state.put('accounts', { ...account, free: account.free - amount });
}

export async function deposit(state: StateTx, address: Address, amount: bigint): Promise<void> {
  const account = await loadAccount(state, address);
  await state.put('accounts', { ...account, free: account.free + amount });
}

export const transferKeepAlive: CallHandler<'balances.transferKeepAlive'> = async (ctx, { dest, value }) => {
  ensure(value > 0n || value === 0n, 'balances.InsufficientBalance');
  const from = await loadAccount(ctx.state, ctx.signer);
  if (from.free < value) {
    throw new DispatchError('balances.InsufficientBalance', `Balance too low: ${ctx.signer} has less than the amount to send`);
  }
  await withdraw(ctx.state, ctx.signer, value);
  await deposit(ctx.state, dest, value);
  ctx.emit('balances', 'Transfer', { from: ctx.signer, to: dest, amount: value.toString() });
};
