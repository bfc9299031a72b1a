// The two rule sets (DECISIONS.md section 5), as data. `spec` follows the specification where
// it is explicit; `unique` follows the real chain exactly. Everything else is shared.
export type RuleSetName = 'spec' | 'unique';

export interface RuleSet {
  name: RuleSetName;
  /** Token prefix bound and its unit. */
  tokenPrefix: { max: number; unit: 'chars' | 'utf8-bytes' };
  /** Who may add or remove admins. */
  adminManagers: 'owner-or-admin' | 'owner';
  /** Whether an admin may remove itself (only meaningful with owner-or-admin). */
  adminMayRemoveSelf: boolean;
  /** Who may set limits. */
  setLimits: 'owner' | 'owner-or-admin';
  /** Effective `ownerCanTransfer` when the collection never set it. */
  ownerCanTransferDefault: boolean;
  /**
   * Minting by someone who is neither owner nor admin: `spec` needs mintMode (and, with access
   * AllowList, a listed signer); `unique` needs mintMode plus listed signer and recipients always.
   */
  publicMint: 'mint-mode-and-list-when-restricted' | 'mint-mode-and-list-always';
  /**
   * How many ReFungible tokens `tokenLimit` allows: `unique` follows the chain, whose refungible
   * pallet keeps the number minted below the limit (one less than NFTs); `spec` allows up to it.
   */
  refungibleTokenLimit: 'up-to-limit' | 'below-limit';
}

export const RULE_SETS: Record<RuleSetName, RuleSet> = {
  spec: {
    name: 'spec',
    tokenPrefix: { max: 4, unit: 'chars' },
    adminManagers: 'owner-or-admin',
    adminMayRemoveSelf: true,
    setLimits: 'owner',
    ownerCanTransferDefault: true,
    publicMint: 'mint-mode-and-list-when-restricted',
    refungibleTokenLimit: 'up-to-limit'
  },
  unique: {
    name: 'unique',
    tokenPrefix: { max: 16, unit: 'utf8-bytes' },
    adminManagers: 'owner',
    adminMayRemoveSelf: false,
    setLimits: 'owner-or-admin',
    ownerCanTransferDefault: false,
    publicMint: 'mint-mode-and-list-always',
    refungibleTokenLimit: 'below-limit'
  }
};

export function isRuleSetName(value: unknown): value is RuleSetName {
  return value === 'spec' || value === 'unique';
}
