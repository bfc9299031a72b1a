// The reading connections of a store: at most `max` open at once, kept open between reads; a read
// beyond them waits in line (first come, first served) for one to be given back.

export interface ReaderPoolOptions<C> {
  /** The most connections open at once for reads that wait their turn. */
  max: number;
  open(): C;
  close(connection: C): void;
  /** The error a read waiting in line gets when the store closes. */
  closedError(): Error;
}

export class ReaderPool<C> {
  private readonly idle: C[] = [];
  private readonly line: { resolve(connection: C): void; reject(error: unknown): void }[] = [];
  private opened = 0;
  private closed = false;

  constructor(private readonly options: ReaderPoolOptions<C>) {}

  /** Connections open now (idle or in use). */
  get size(): number {
    return this.opened;
  }

  /**
   * A connection for one read. `beyondMax`: for a read started inside another read or write of
   * the same store, which would wait forever if the reads holding every connection wait for it.
   */
  acquire(beyondMax = false): Promise<C> {
    if (this.closed) return Promise.reject(this.options.closedError());
    const idle = this.idle.pop();
    if (idle !== undefined) return Promise.resolve(idle);
    if (this.opened < this.options.max || beyondMax) {
      try {
        const connection = this.options.open();
        this.opened++;
        return Promise.resolve(connection);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise((resolve, reject) => this.line.push({ resolve, reject }));
  }

  /** Give a connection back: to the first read in line, or kept idle (closed if over `max`). */
  release(connection: C): void {
    if (this.closed || this.opened > this.options.max) {
      this.opened--;
      this.options.close(connection);
      return;
    }
    const next = this.line.shift();
    if (next) next.resolve(connection);
    else this.idle.push(connection);
  }

  /** Close the idle connections and refuse the reads in line; those in use close when released. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const connection of this.idle.splice(0)) {
      this.opened--;
      this.options.close(connection);
    }
    for (const waiting of this.line.splice(0)) waiting.reject(this.options.closedError());
  }
}
