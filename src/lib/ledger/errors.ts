// Dispatch errors: the chain's error names (`section.name`) with a message in words.
import type { DispatchErrorInfo } from './types';

/** What the chain's documentation says each error means; used when no better message is given. */
const DEFAULT_MESSAGES: Record<string, string> = {
  'common.CollectionNotFound': 'Collection not found',
  'common.TokenNotFound': 'Token not found',
  'common.NoPermission': 'The signer has no permission to perform this action',
  'common.PublicMintingNotAllowed': 'Public minting is not allowed in this collection',
  'common.AddressNotInAllowlist': 'Address is not in the allow list',
  'common.CollectionTokenLimitExceeded': 'Collection token limit exceeded',
  'common.AccountTokenLimitExceeded': 'Account token ownership limit exceeded',
  'common.CollectionLimitBoundsExceeded': 'A collection limit is out of its bounds',
  'common.OwnerPermissionsCantBeReverted': 'This owner permission was switched off and cannot be switched back on',
  'common.TransferNotAllowed': 'Token transfers are disabled in this collection',
  'common.ApprovedValueTooLow': 'The signer is not allowed to transfer this token',
  'common.CantApproveMoreThanOwned': 'Only the token owner can approve',
  'common.AddressIsZero': 'The zero address cannot receive tokens',
  'common.EmptyPropertyKey': 'Property key is empty',
  'common.InvalidCharacterInPropertyKey': 'Property key has a character other than A-Z a-z 0-9 _ - .',
  'common.PropertyKeyIsTooLong': 'Property key is longer than 256 bytes',
  'common.PropertyLimitReached': 'More than 64 property keys',
  'common.NoSpaceForProperty': 'Not enough space left for this property',
  'common.UserIsNotAllowedToNest': 'The signer is not allowed to nest tokens under this token',
  'common.SourceCollectionIsNotAllowedToNest': "The token's collection may not be nested under this collection",
  'common.CantDestroyNotEmptyCollection': 'Collection still has tokens and cannot be destroyed',
  'common.CollectionAdminCountExceeded': 'A collection may have at most 5 admins',
  'common.UserIsNotCollectionAdmin': 'The address is not an admin of this collection',
  'common.NotSufficientFounds': 'Not enough funds to pay the collection creation deposit',
  'common.ConfirmSponsorshipFail': 'Only the pending sponsor can confirm sponsorship',
  'common.UnsupportedOperation': 'This operation is not supported for this collection',
  'common.CollectionNameLimitExceeded': 'Collection name is longer than 64 characters',
  'common.CollectionDescriptionLimitExceeded': 'Collection description is longer than 256 characters',
  'common.CollectionTokenPrefixLimitExceeded': 'Token prefix is too long',
  'common.TotalCollectionsLimitExceeded': 'Too many collections',
  'common.CollectionIsExternal': 'Collection is external (read-only) and cannot be changed',
  'unique.EmptyArgument': 'The list argument is empty',
  'unique.TooManyItems': 'Too many items in one call (at most 120 tokens)',
  'unique.CollectionDecimalPointLimitExceeded': 'Decimals must be at most 30',
  'nonfungible.NonfungibleItemsHaveNoAmount': 'An NFT amount can only be 0 or 1',
  'nonfungible.CantBurnNftWithChildren': 'A token with nested tokens cannot be burned',
  'nonfungible.NotNonfungibleDataUsedToMintFungibleCollectionToken': 'Only NFT item data can mint in an NFT collection',
  'common.TokenValueTooLow': 'The amount is more than the balance (or the token does not exist)',
  'common.FungibleItemsHaveNoId': 'A fungible collection has one token, id 0',
  'common.NotFungibleDataUsedToMintFungibleCollectionToken': 'Only Fungible item data can mint in a Fungible collection',
  'fungible.SettingPropertiesNotAllowed': 'A fungible collection has no token properties',
  'fungible.SettingAllowanceForAllNotAllowed': 'A fungible collection has no operator for all tokens',
  'refungible.NotRefungibleDataUsedToMintFungibleCollectionToken': 'Only ReFungible item data can mint in a ReFungible collection',
  'refungible.WrongRefungiblePieces': 'A refungible token has at most 10^21 pieces',
  'refungible.RepartitionWhileNotOwningAllPieces': 'Only the holder of every piece can repartition a token',
  'unique.RepartitionCalledOnNonRefungibleCollection': 'Only a ReFungible collection can repartition its tokens',
  'arithmetic.Overflow': 'An amount would overflow 128 bits',
  'structure.DepthLimit': 'Nesting is deeper than 5 levels',
  'structure.OuroborosDetected': 'A token cannot be nested under itself or its own descendant',
  'structure.TokenNotFound': 'Parent token not found',
  'structure.CantNestTokenUnderCollection': 'A token cannot be nested under a collection address',
  'refungible.RefungibleDisallowsNesting': 'Refungible tokens cannot be parents',
  'fungible.FungibleDisallowsNesting': 'Fungible tokens cannot be parents',
  'balances.InsufficientBalance': 'Balance too low to send value',
  'balances.KeepAlive': 'Transfer would kill the account',
  'unique.ModeNotSupported': 'This operation is not available yet for this collection mode'
};

export class DispatchError extends Error {
  readonly section: string;
  readonly errorName: string;

  /** `error` is `section.Name`, e.g. `common.NoPermission`. */
  constructor(error: string, message?: string) {
    const [section, name] = error.split('.');
    super(message ?? DEFAULT_MESSAGES[error] ?? `${section}.${name}`);
    this.name = 'DispatchError';
    this.section = section;
    this.errorName = name;
  }

  get info(): DispatchErrorInfo {
    return { section: this.section, name: this.errorName, message: this.message };
  }
}

/** Throw the chain error `error` unless `condition` holds. */
export function ensure(condition: unknown, error: string, message?: string): asserts condition {
  if (!condition) throw new DispatchError(error, message);
}
