// Proposed changes to Opalite's source, tried out in the bench without touching src/: with
// BENCH_BROWSER_PATCH=all (or a comma list of names) bench/browser.ts bundles Opalite's worker
// (and its own page) with esbuild and rewrites these spots at load time. Each patch names the
// file and the exact text it replaces; a patch whose text is gone fails the bundle, so a stale
// patch is noticed rather than silently measuring nothing.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';

export interface SourcePatch {
  name: string;
  /** Path from the project root. */
  file: string;
  why: string;
  edits: [from: string, to: string][];
}

export const PATCHES: SourcePatch[] = [
  {
    name: 'read-early',
    file: 'src/lib/storage/dexie-store.ts',
    why: "DexieStore.read answers when its callback has the result, not when Dexie's readonly transaction has committed (one backend round trip and Dexie's commit bookkeeping less per read)",
    edits: [
      [
        `  async read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    try {
      return await this.transaction('r', async (trans) => {
        const tx = new DexieTx(trans, false, this.db.factory);
        try {
          return await fn(tx);
        } finally {
          tx.finish();
        }
      });
    } catch (e) {
      throw explainInactive(e, false);
    }
  }`,
        `  async read<T>(fn: (tx: QueryTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.transaction('r', async (trans) => {
        const tx = new DexieTx(trans, false, this.db.factory);
        try {
          const result = await fn(tx);
          resolve(result);
          return result;
        } finally {
          tx.finish();
        }
      }).catch((e) => reject(explainInactive(e, false)));
    });
  }`
      ]
    ]
  },
  {
    name: 'token-parallel',
    file: 'src/lib/api/routes/tokens-read.ts',
    why: 'GET /tokens asks IndexedDB for the token, its children and its collection at once (one round trip instead of three in a row)',
    edits: [
      [
        `        const token = await existingToken(tx, collectionId, tokenId);
        const children = await childrenOf(tx, token);
        return { token, children, collections: await gatherCollections(tx, [token, ...children]) };`,
        `        const [token, children, own] = await Promise.all([
          existingToken(tx, collectionId, tokenId),
          childrenOf(tx, { collectionId, tokenId }),
          tx.get('collections', collectionId)
        ]);
        const others = children.filter((c) => c.collectionId !== collectionId);
        const collections = others.length ? await gatherCollections(tx, others) : new Map();
        if (own) collections.set(collectionId, own);
        return { token, children, collections };`
      ]
    ]
  },
  {
    name: 'wasm-verify',
    file: 'src/lib/codec/signature.ts',
    why: "verifySignature checks sr25519 with @polkadot/wasm-crypto (WASM, a dependency already, ready after cryptoWaitReady) instead of util-crypto 14's sr25519Verify, which is @scure/sr25519 in plain JS",
    edits: [
      [
        `import { ed25519Verify, mnemonicValidate, sr25519Verify } from '@polkadot/util-crypto';`,
        `import { ed25519Verify, mnemonicValidate, sr25519Verify as jsSr25519Verify } from '@polkadot/util-crypto';
import { isReady as wasmReady, sr25519Verify as wasmSr25519Verify } from '@polkadot/wasm-crypto';
const sr25519Verify = (message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array) =>
  wasmReady() ? wasmSr25519Verify(signature, message, publicKey) : jsSr25519Verify(message, signature, publicKey);`
      ]
    ]
  },
  {
    name: 'status-one-read',
    file: 'src/lib/api/routes/extrinsic.ts',
    why: 'GET /extrinsic/status reads the record and presents it in one read transaction instead of two',
    edits: [
      [
        `      const record = await ledger.status(hash.toLowerCase());
      if (!record) throw new ApiError('NotFoundError', \`No extrinsic with hash \${hash} found\`);
      return { status: 200, json: jsonSafe(await ledger.read((tx) => statusJson(record, ledger, tx))) };`,
        `      const stored = await ledger.read(async (tx) => {
        const record = await tx.get('extrinsics', hash.toLowerCase());
        return record ? { record, json: await statusJson(record, ledger, tx) } : null;
      });
      if (stored) return { status: 200, json: jsonSafe(stored.json) };
      const record = await ledger.status(hash.toLowerCase());
      if (!record) throw new ApiError('NotFoundError', \`No extrinsic with hash \${hash} found\`);
      return { status: 200, json: jsonSafe(await ledger.read((tx) => statusJson(record, ledger, tx))) };`
      ]
    ]
  }
];

/** The patches BENCH_BROWSER_PATCH asks for (`all`, or names separated by commas). */
export function selectedPatches(spec: string | undefined): SourcePatch[] {
  if (!spec) return [];
  if (spec === 'all') return PATCHES;
  const names = spec.split(',').map((s) => s.trim());
  const unknown = names.filter((n) => !PATCHES.some((p) => p.name === n));
  if (unknown.length) throw new Error(`unknown BENCH_BROWSER_PATCH ${unknown.join(', ')}; known: ${PATCHES.map((p) => p.name).join(', ')}`);
  return PATCHES.filter((p) => names.includes(p.name));
}

/** An esbuild plugin applying `patches` to the files they name. */
export function patchPlugin(root: string, patches: SourcePatch[]): Plugin {
  const byFile = new Map<string, SourcePatch[]>();
  for (const p of patches) byFile.set(join(root, p.file), [...(byFile.get(join(root, p.file)) ?? []), p]);
  return {
    name: 'opalite-bench-patches',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const list = byFile.get(args.path);
        if (!list) return undefined;
        let contents = readFileSync(args.path, 'utf8');
        for (const patch of list) {
          for (const [from, to] of patch.edits) {
            if (!contents.includes(from)) throw new Error(`patch ${patch.name}: the text to replace is no longer in ${patch.file}`);
            contents = contents.replace(from, to);
          }
        }
        return { contents, loader: 'ts', resolveDir: dirname(args.path) };
      });
    }
  };
}
