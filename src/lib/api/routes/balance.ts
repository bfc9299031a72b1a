// Native balances: read, and transfer (how a new account gets funded from a dev account).
import { z } from 'zod';
import { loadAccount } from '../../ledger/balances';
import { MAX_DECIMAL_DIGITS } from '../../limits';
import { feeResponse, rawUnits } from '../fee';
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
  readsNoState: true,
  toCall: async (a, { ledger }) => {
    return { name: 'balances.transferKeepAlive', args: { dest: a.destination, value: rawUnits(a.amount, ledger.config.decimals) } };
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
