// The `tx` handed to code that has been judged to read no chain state: answered without opening a
// read transaction (on SQLite each one after a block starts a new snapshot), so a read through it
// is a mistake in that judgement, thrown rather than answered from nothing.
import type { QueryTx } from '../ledger/store';

export const NO_STATE = new Proxy({} as QueryTx, {
  get(_target, name) {
    throw new Error(`Chain state was read (tx.${String(name)}) by code answered without a read transaction`);
  }
});
