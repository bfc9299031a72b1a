// One button's work as reactive state: busy while it runs, its error in words afterwards
// (a cancelled signature is not an error), or what it achieved.
import { SignatureCancelledError, errorText } from '../client/errors';

export class Action {
  busy = $state(false);
  error = $state<string | null>(null);
  done = $state<string | null>(null);

  /** Runs `work` unless already running; answers its result, or undefined when it failed. */
  async run<T>(work: () => Promise<T>, doneText?: string | ((result: T) => string)): Promise<T | undefined> {
    if (this.busy) return undefined;
    this.busy = true;
    this.error = null;
    this.done = null;
    try {
      const result = await work();
      if (doneText) this.done = typeof doneText === 'function' ? doneText(result) : doneText;
      return result;
    } catch (error) {
      this.error = error instanceof SignatureCancelledError ? null : errorText(error);
      if (error instanceof SignatureCancelledError) this.done = 'Cancelled: nothing was submitted';
      return undefined;
    } finally {
      this.busy = false;
    }
  }

  reset(): void {
    this.error = null;
    this.done = null;
  }
}

/** Reads something for a page: loading, its value, or why it failed. */
export class Loader<T> {
  loading = $state(true);
  value = $state<T | undefined>(undefined);
  error = $state<string | null>(null);
  #id = 0;

  async load(read: () => Promise<T>): Promise<void> {
    const id = ++this.#id;
    this.loading = true;
    try {
      const value = await read();
      if (id !== this.#id) return;
      this.value = value;
      this.error = null;
    } catch (error) {
      if (id !== this.#id) return;
      this.error = errorText(error);
    } finally {
      if (id === this.#id) this.loading = false;
    }
  }
}
