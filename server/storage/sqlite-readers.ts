// The reading connections of a store: at most `max` open at once, kept open between reads; a read
// beyond them waits in line (first come, first served) for one to be given back.

export interface ReaderPoolOptions<C> {
  /** The most connections open at once. */
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

  /** A connection for one read: at once, or a promise of one when all are taken. */
  acquire(): C | Promise<C> {
    if (this.closed) throw this.options.closedError();
    const idle = this.idle.pop();
    if (idle !== undefined) return idle;
    if (this.opened < this.options.max) {
      const connection = this.options.open();
      this.opened++;
      return connection;
    }
    return new Promise((resolve, reject) => this.line.push({ resolve, reject }));
  }

  /** Give a connection back: to the first read in line, or kept idle (closed once the pool is). */
  release(connection: C): void {
    if (this.closed) {
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
