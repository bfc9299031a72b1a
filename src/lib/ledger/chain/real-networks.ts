// Genesis hashes of the real networks whose runtime Opalite's calls encode for (Unique Network's
// chains). An Opalite ledger's genesis hash is its own (genesis.ts: a hash of fresh entropy), so
// a payload signed for it is valid nowhere else; a ledger claiming one of these is refused, or
// every "sandbox" signature would be a real extrinsic there.
export const REAL_NETWORK_GENESIS: ReadonlyMap<string, string> = new Map([
  ['0x84322d9cddbf35088f1e54e9a85c967a41a56a4f43445768125e61af166c7d31', 'Unique'],
  ['0xcd4d732201ebe5d6b014edda071c4203e16867305332301dc8d092044b28e554', 'Quartz'],
  ['0xc87870ef90a438d574b8e320f17db372c50f62beb52e479c8ff6ee5b460670b9', 'Opal']
]);

/** The real network whose genesis hash this is, or undefined. */
export function realNetworkOf(genesisHash: string): string | undefined {
  return REAL_NETWORK_GENESIS.get(genesisHash.toLowerCase());
}
