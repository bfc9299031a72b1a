// The chain's constants (reference/unique-chain-rules.md section 1).
export const MAX_COLLECTION_NAME_LENGTH = 64; // UTF-16 code units
export const MAX_COLLECTION_DESCRIPTION_LENGTH = 256; // UTF-16 code units
export const MAX_PROPERTY_KEY_LENGTH = 256; // bytes
export const MAX_PROPERTY_VALUE_LENGTH = 32_768; // bytes
export const MAX_PROPERTIES_PER_ITEM = 64;
export const MAX_COLLECTION_PROPERTIES_SIZE = 40_960;
export const MAX_TOKEN_PROPERTIES_SIZE = 32_768;
export const COLLECTION_ADMINS_LIMIT = 5;
export const NESTING_BUDGET = 5;
export const TOPMOST_OWNER_BUDGET = 10;
export const MAX_ITEMS_PER_BATCH = 120;
export const ACCOUNT_TOKEN_OWNERSHIP_LIMIT = 100_000_000;
export const COLLECTION_TOKEN_LIMIT = 4_294_967_295;
export const CUSTOM_DATA_LIMIT = 2_048;
export const SPONSOR_TRANSFER_TIMEOUT = 5;
export const SPONSOR_APPROVE_TIMEOUT = 5;
export const MAX_SPONSOR_TIMEOUT = 10_368_000;
export const COLLECTION_NUMBER_LIMIT = 100_000;
export const MAX_DECIMAL_POINTS = 30;
export const MAX_NESTING_RESTRICTED = 16;

/** Native token: 18 decimals. */
export const DECIMALS = 18;
export const UNIT = 10n ** 18n;
/** Non-refundable deposit for creating a collection: 2 units. */
export const COLLECTION_CREATION_PRICE = 2n * UNIT;

/** Token nesting and collection contract address prefixes (the codec owns the byte layout). */
export { NESTING_ADDRESS_PREFIX as NESTING_PREFIX, COLLECTION_ADDRESS_PREFIX } from '../codec/nesting';
export const ETHEREUM_ZERO = '0x0000000000000000000000000000000000000000';

/** Extrinsics waiting for a block, at most, by default (`--pool-size`; a submit beyond is refused: the pool is full). */
export const DEFAULT_POOL_SIZE = 8_192;
/** Each account's guaranteed share of the pool, by default (`--pool-per-account`); see chain/pool-limits.ts. */
export const DEFAULT_POOL_PER_ACCOUNT = 64;
/** The largest pool a host may ask for: every waiting extrinsic is held in memory and a block seals them all at once. */
export const POOL_SIZE_CAP = 65_536;
/** The real chain's block time in seconds (reference/unique-chain-rules.md section 1). */
export const CHAIN_BLOCK_SECONDS = 6;
