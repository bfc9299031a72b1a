// A value the browser host provides once at the app's start (src/hooks.client.ts) and the state
// layer hands on: asked for before then, it says who was to provide it instead of failing later.

export interface ProvidedAtStart<T> {
  /** The host's part; a later call replaces the value (tests provide their own). */
  provide(value: T): void;
  get(): T;
}

export function providedAtStart<T>(what: string): ProvidedAtStart<T> {
  let value: T | null = null;
  return {
    provide(provided) {
      value = provided;
    },
    get() {
      if (value === null) throw new Error(`No ${what}: the browser host provides it at start (src/hooks.client.ts)`);
      return value;
    }
  };
}
