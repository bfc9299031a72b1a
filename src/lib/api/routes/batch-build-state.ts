// The state a batch's later calls are built against: what the earlier calls leave, as the chain
// runs them in order. So "mint, then set the new token's properties" builds in one batch. Earlier
// calls run into an overlay that is never written anywhere; a call that would fail there stops the
// replay (on the chain the batch stops at it too), and later calls see the state before it.
import { canonicalSigner } from '../../ledger/chain/signature-check';
import { NESTING_BUDGET } from '../../ledger/constants';
import { dispatchCall } from '../../ledger/dispatch';
import { DispatchError } from '../../ledger/errors';
import { Overlay } from '../../ledger/overlay';
import type { RuleSet } from '../../ledger/rules';
import type { QueryTx } from '../../ledger/store';
import type { Call } from '../../ledger/types';

export class BatchBuildState {
  readonly #overlay: Overlay;
  readonly #signer: string;
  readonly #rules: RuleSet;
  #blockNumber: number | null = null;
  #replaying = true;
  /** The view a route builds its call in: point reads see earlier calls; index queries see the state before the batch. */
  readonly view: QueryTx;

  constructor(
    private readonly tx: QueryTx,
    signer: string,
    rules: RuleSet
  ) {
    this.#overlay = new Overlay(tx);
    this.#signer = canonicalSigner(signer);
    this.#rules = rules;
    const overlay = this.#overlay;
    this.view = {
      get: (table, key) => overlay.get(table, key),
      put: () => Promise.reject(new Error('building a call never writes')),
      delete: () => Promise.reject(new Error('building a call never writes')),
      childrenOf: (collectionId, tokenId) => overlay.childrenOf(collectionId, tokenId),
      countOwned: (collectionId, owner) => overlay.countOwned(collectionId, owner),
      tokensOfOwner: (owner, collectionId) => tx.tokensOfOwner(owner, collectionId),
      tokenIdsOfCollection: (collectionId) => tx.tokenIdsOfCollection(collectionId),
      allowListOf: (collectionId) => tx.allowListOf(collectionId),
      recentExtrinsics: (limit, signer) => tx.recentExtrinsics(limit, signer),
      headBlock: () => tx.headBlock(),
      blockByHash: (hash) => tx.blockByHash(hash),
      pooled: () => tx.pooled(),
      history: tx.history
    };
  }

  /** Runs `call` into the overlay, so the next call is built after it; stops at the first failure. */
  async apply(call: Call): Promise<void> {
    if (!this.#replaying) return;
    this.#blockNumber ??= ((await this.tx.headBlock())?.number ?? 0) + 1;
    const step = new Overlay(this.#overlay);
    try {
      await dispatchCall(
        { state: step, signer: this.#signer, rules: this.#rules, blockNumber: this.#blockNumber, nestingBudget: { remaining: NESTING_BUDGET }, emit: () => {}, events: [] },
        call
      );
      await step.commit();
    } catch (error) {
      if (!(error instanceof DispatchError)) throw error;
      this.#replaying = false;
    }
  }
}
