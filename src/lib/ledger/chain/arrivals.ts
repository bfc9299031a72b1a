// Signed submissions of each signer on their way into the pool (their signature being checked, or
// waiting for the signer's serial section), by nonce. A client that signs nonces n, n+1, … and
// sends them at once cannot choose the order they are checked in: n+1 checked first finds a gap
// that n's admission is about to fill. It waits for the signer's lower nonces in flight instead of
// being refused; a gap nothing in flight can fill is still refused (DECISIONS 3: no gaps).
import type { Address } from '../types';

export interface Arrival {
  readonly signer: Address;
  readonly nonce: number;
  /** Resolves once this submission is admitted or refused. */
  readonly settled: Promise<void>;
  leave(): void;
}

export class Arrivals {
  private readonly bySigner = new Map<Address, Set<Arrival>>();

  enter(signer: Address, nonce: number): Arrival {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    let set = this.bySigner.get(signer);
    if (!set) this.bySigner.set(signer, (set = new Set()));
    const arrival: Arrival = {
      signer,
      nonce,
      settled,
      leave: () => {
        set.delete(arrival);
        if (set.size === 0 && this.bySigner.get(signer) === set) this.bySigner.delete(signer);
        settle();
      }
    };
    set.add(arrival);
    return arrival;
  }

  /** When each submission of the same signer with a lower nonce, still in flight, settles. */
  earlier(arrival: Arrival): Promise<void>[] {
    const out: Promise<void>[] = [];
    for (const other of this.bySigner.get(arrival.signer) ?? []) if (other.nonce < arrival.nonce) out.push(other.settled);
    return out;
  }
}
