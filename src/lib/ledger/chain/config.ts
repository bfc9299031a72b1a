// The chain's identity and settings, fixed at genesis (block mode can change at run time).
import type { ForkOrigin } from '../fork/source';
import type { RuleSetName } from '../rules';

export type BlockMode = { kind: 'instant' } | { kind: 'interval'; ms: number } | { kind: 'manual' };

/** An interval chain's bounds: faster would keep the host sealing; slower is a manual chain. */
export const BLOCK_INTERVAL_MS = { min: 100, max: 3_600_000 } as const;

/** Why `mode` is not a block mode a ledger runs (the words name the field), or null when it is one. */
export function blockModeProblem(mode: unknown): string | null {
  const kind = typeof mode === 'object' && mode !== null ? (mode as { kind?: unknown }).kind : undefined;
  if (kind === 'instant' || kind === 'manual') return null;
  if (kind !== 'interval') return 'must be instant, manual or interval:<ms>';
  const ms = (mode as { ms?: unknown }).ms;
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < BLOCK_INTERVAL_MS.min || ms > BLOCK_INTERVAL_MS.max) {
    return `interval must be a whole number of milliseconds from ${BLOCK_INTERVAL_MS.min} to ${BLOCK_INTERVAL_MS.max}`;
  }
  return null;
}

/** A block mode by its name, "instant", "manual" or "interval:<ms>", or null (bounds: `blockModeProblem`). */
export function blockModeFromName(name: string): BlockMode | null {
  if (name === 'instant' || name === 'manual') return { kind: name };
  const interval = /^interval:(\d{1,8})$/.exec(name);
  return interval ? { kind: 'interval', ms: Number(interval[1]) } : null;
}

export interface ChainConfig {
  /** Network segment of the base URL. */
  network: string;
  ss58Prefix: number;
  tokenSymbol: string;
  decimals: number;
  specVersion: number;
  transactionVersion: number;
  genesisHash: string;
  rules: RuleSetName;
  /** Mortal era length of built payloads, in blocks (a power of two). */
  eraPeriod: number;
  createdAt: number;
  /** A fork's source and block: the state below this chain's own blocks is the source's there. */
  fork?: ForkOrigin;
}

export const SPEC_VERSION = 10_000;
// 2: the unique pallet's calls from transferFrom on moved to the chain's indices (approveFrom is 24).
export const TRANSACTION_VERSION = 2;
export const TOKEN_SYMBOL = 'OPL';
export const SS58_PREFIX = 42;
/** Blocks come fast in instant mode, so payloads stay valid for 1,024 blocks rather than 64. */
export const ERA_PERIOD = 1024;

/** The dev accounts funded at genesis, by dev URI. */
export const DEV_ACCOUNTS: Record<string, string> = {
  '//Alice': '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
  '//Bob': '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty',
  '//Charlie': '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y',
  '//Dave': '5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy',
  '//Eve': '5HGjWAeFDfFCWPsjFQdVV2Msvz2XtMktvgocEZcCj68kUMaw',
  '//Ferdie': '5CiPPseXPECbkjWCa6MnjNokrgYjMqmKndv2rSnekmSK2DjL'
};
