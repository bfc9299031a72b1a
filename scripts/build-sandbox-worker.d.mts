// Types of build-sandbox-worker.mjs (plain JavaScript: the package build runs it with Node alone).
export const ROOT: string;
export const DEFAULT_OUT_FILE: string;
export interface Sizes {
  /** Bytes as written. */
  raw: number;
  /** Bytes gzipped at level 9. */
  gzip: number;
}
export function sizesOf(bytes: Uint8Array): Sizes;
export function kib(bytes: number): string;
export function buildSandboxWorker(options?: { outFile?: string; quiet?: boolean }): Promise<Sizes & { outFile: string }>;
