// Native balances: read, and transfer (how a new account gets funded from a dev account).
import { z } from 'zod';
import { loadAccount } from '../../ledger/balances';
import { validationError } from '../errors';
import { MAX_DECIMAL_DIGITS, quote } from '../../limits';
import { feeResponse, fromUnits } from '../fee';
import { mutation, read } from '../route';
import { address, decimalString } from '../schemas';

/** Transfer native tokens (also answered at /fungible/transfer, as the real service does). */
export const balanceTransfer = mutation({
  method: 'POST',
  path: '/balance/transfer',
  tag: 'balance',
  summary: 'Transfer native tokens; `amount` is in whole units (decimal string or number)',
  body: z.object({
    address,
    destination: address,
    amount: z.union([decimalString('amount'), z.number().nonnegative()], {
      error: `amount must be a number or a decimal string of at most ${MAX_DECIMAL_DIGITS} digits`
    })
  }),
  signer: (a) => a.address,
  stateless: true,
  toCall: async (a, { ledger }) => {
    const value = fromUnits(a.amount, ledger.config.decimals);
    if (value === null) throw validationError(`amount must be a non-negative decimal number of whole units with at most ${ledger.config.decimals} decimals: ${quote(a.amount)}`);
    return { name: 'balances.transferKeepAlive', args: { dest: a.destination, value } };
  }
});

export const balanceRoutes = [
  read({
    path: '/balance',
    tag: 'balance',
    summary: 'Balance of an account',
    query: z.object({ address }),
    handle: async ({ address }, { ledger }) => {
      const account = await ledger.read((tx) => loadAccount(tx, address));
      const amount = (raw: bigint) => feeResponse(raw, ledger.config.tokenSymbol, ledger.config.decimals);
      return {
        address,
        availableBalance: amount(account.free),
        lockedBalance: amount(0n),
        freeBalance: amount(account.free),
        totalBalance: amount(account.free),
        reservedBalance: amount(0n),
        vested: []
      };
    }
  }),
  balanceTransfer
];
