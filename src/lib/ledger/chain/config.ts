// The chain's identity and settings, fixed at genesis (block mode can change at run time).
import type { RuleSetName } from '../rules';

export type BlockMode = { kind: 'instant' } | { kind: 'interval'; ms: number } | { kind: 'manual' };

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
}

export const SPEC_VERSION = 10_000;
export const TRANSACTION_VERSION = 1;
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
