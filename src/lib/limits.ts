// Every bound on what one request may make the service do, in one place. Each is checked before
// any work that grows faster than the input (SS58 decoding, recursion, buffering), and the OpenAPI
// document states them. It imports nothing and sits below every layer, so the codec may use it too.

const KiB = 1024;
const MiB = 1024 * KiB;

/** Longest SS58 string decoded (SS58 of a 32-byte key is at most 50 characters): base58 decoding is quadratic. */
export const MAX_ADDRESS_LENGTH = 64;

/** Longest account field: SS58 (MAX_ADDRESS_LENGTH) or a public key as `0x` + 64 hex (66 characters). */
export const MAX_ACCOUNT_FIELD_LENGTH = 66;

/** Largest JSON request body by default (a host may raise it): a single-token call fits many times over. */
export const MAX_JSON_BODY_BYTES = 1 * MiB;

/** Default largest uploaded file (IPFS upload, ledger import); a host may set its own. */
export const DEFAULT_MAX_UPLOAD_BYTES = 20 * MiB;

/** Room for the multipart framing (boundaries, part headers) around an uploaded file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * KiB;

/** Longest CID accepted: a CIDv1 of a 64-byte digest in base32 is 113 characters; base58 decoding is quadratic. */
export const MAX_CID_LENGTH = 128;

/** Files in one `upload-files` or `add-files` form (each is imported and stored). */
export const MAX_FILES_PER_UPLOAD = 100;

/** Files and folders in one directory tree built by a request (a ZIP archive, or a folder and the files added to it). */
export const MAX_TREE_ENTRIES = 1000;

/** Bytes a ZIP archive may unpack to in all: its files are held in memory together before they are stored. */
export const MAX_UNZIPPED_BYTES = 64 * MiB;

/** Bytes of a ledger archive (`/dev/export?files=1`: the ledger JSON and every stored file), packed and unpacked: it is held in memory while checked. */
export const MAX_LEDGER_ARCHIVE_BYTES = 128 * MiB;

/** Stored files in one ledger archive (each one's CID is recomputed from its bytes on import). */
export const MAX_LEDGER_ARCHIVE_FILES = 10_000;

/** Longest path in a directory tree (folders and file name), in UTF-8 bytes. */
export const MAX_PATH_BYTES = 1024;

/** Longest single name in such a path, in UTF-8 bytes (the common file-system limit). */
export const MAX_NAME_BYTES = 255;

/** Deepest folder nesting in such a path. */
export const MAX_PATH_DEPTH = 32;

/** Deepest JSON nesting accepted: real bodies are under 10 levels; deeper ones only exhaust recursion. */
export const MAX_JSON_DEPTH = 32;

/** Longest request URL: Node's HTTP parser allows 16 KiB of headers, and no route needs more. */
export const MAX_URL_LENGTH = 16 * KiB;

/** Characters of any client input an error message repeats (a 5 MB address must not echo back). */
export const MAX_QUOTE_CHARS = 120;

/** Error issues listed in one answer (a million bad array items must not make a million messages). */
export const MAX_REPORTED_ISSUES = 10;

// Properties in a JSON request: shape bounds above the chain's (64 per list, keys of 256 bytes,
// values of 32,768: ledger/constants.ts). The ledger applies the chain's by its rule set
// (DECISIONS 5): under `spec` a call over them is included and fails at dispatch; under `unique`
// creation data, keys and values over them cannot be decoded (400 at submit). Under both, a
// set/delete list of more than 64 entries is included and fails with PropertyLimitReached.

/** Properties (or keys, or permissions) one list of a request may hold. */
export const MAX_REQUEST_PROPERTIES = 1_024;

/** Characters of a property key in a request. */
export const MAX_REQUEST_PROPERTY_KEY_CHARS = 4_096;

/** Characters of a property value in a request (the 1 MiB body bounds them all together). */
export const MAX_REQUEST_PROPERTY_VALUE_CHARS = 262_144;

/** Tokens minted by one create-multiple call: the chain's MAX_ITEMS_PER_BATCH. */
export const MAX_TOKENS_PER_CALL = 120;

/** Calls built by one BuildBatch/BuildSequence request (each costs a read and a build). */
export const MAX_CALLS_PER_BATCH = 120;

/** Accounts in one list argument (admin list at create: the chain allows 5 admins; this is a shape bound). */
export const MAX_ADDRESSES_PER_CALL = 64;

/** Decimal digits of a number string: u128 has 39, so 40 leaves room for a sign or a point. */
export const MAX_DECIMAL_DIGITS = 40;

/** Most blocks one /dev/seal makes (each is a store write). */
export const MAX_SEAL_COUNT = 1000;

/** `0x` + 32 bytes: a block or extrinsic hash, a genesis hash, a public key. */
export const HASH_HEX_LENGTH = 66;

/** `0x` + type byte + 65 bytes: the longest MultiSignature (ecdsa); sr25519/ed25519 take 132 characters. */
export const MAX_SIGNATURE_HEX_LENGTH = 2 + 2 * 66;

/** `0x` + 16 bytes: a u128 (tip) or any smaller number field of a payload (nonce, era, versions). */
export const MAX_NUMBER_HEX_LENGTH = 2 + 2 * 16;

/** Hex of call bytes (`method`, payload hex): bounded only by the JSON body that carries them. */
export const MAX_CALL_HEX_LENGTH = MAX_JSON_BODY_BYTES;

/** Signed extensions a payload names (Substrate chains list about a dozen). */
export const MAX_SIGNED_EXTENSIONS = 32;

/** Any other free-text field (names of sections and methods, token prefixes, enum spellings, ids in queries). */
export const MAX_SHORT_TEXT_LENGTH = 256;

/** Entries of one list or map inside a schema-2 token or collection info (attributes, media, slots...): all of it fits one 32 KiB property. */
export const MAX_SCHEMA_V2_ITEMS = 1024;

/** Arguments of one state query (`POST /query/...` `args`). */
export const MAX_STATE_QUERY_ARGS = 8;

/** A URL given by a client (callback, media url). */
export const MAX_URL_FIELD_LENGTH = 2 * KiB;

/** Limits a host may set for itself (HandlerOptions.limits); unset ones take the defaults above. */
export interface RequestLimits {
  /** Largest upload (multipart file, ledger import). */
  maxUploadBytes?: number;
  /** Largest JSON body. */
  maxJsonBytes?: number;
}

export type ResolvedLimits = Required<RequestLimits>;

export function resolveLimits(limits: RequestLimits = {}): ResolvedLimits {
  return {
    maxUploadBytes: limits.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    maxJsonBytes: limits.maxJsonBytes ?? MAX_JSON_BODY_BYTES
  };
}

/**
 * At most MAX_QUOTE_CHARS characters of a client's input, for an error message; a longer input is
 * cut and its length said, so the message stays short whatever was sent.
 */
export function quote(input: unknown): string {
  const text = typeof input === 'string' ? input : safeString(input);
  if (text.length <= MAX_QUOTE_CHARS) return text;
  return `${text.slice(0, MAX_QUOTE_CHARS)}… (${text.length} characters)`;
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value); // objects without a usable toString
  }
}

/** Every bound above, for the OpenAPI document (`x-opalite-limits`). */
export function limitsDocument(limits: ResolvedLimits): Record<string, number> {
  return {
    maxJsonBodyBytes: limits.maxJsonBytes,
    maxUploadBytes: limits.maxUploadBytes,
    maxUrlLength: MAX_URL_LENGTH,
    maxJsonDepth: MAX_JSON_DEPTH,
    maxAddressLength: MAX_ADDRESS_LENGTH,
    maxAccountFieldLength: MAX_ACCOUNT_FIELD_LENGTH,
    maxCidLength: MAX_CID_LENGTH,
    maxFilesPerUpload: MAX_FILES_PER_UPLOAD,
    maxTreeEntries: MAX_TREE_ENTRIES,
    maxUnzippedBytes: MAX_UNZIPPED_BYTES,
    maxPathBytes: MAX_PATH_BYTES,
    maxNameBytes: MAX_NAME_BYTES,
    maxPathDepth: MAX_PATH_DEPTH,
    maxRequestProperties: MAX_REQUEST_PROPERTIES,
    maxRequestPropertyKeyChars: MAX_REQUEST_PROPERTY_KEY_CHARS,
    maxRequestPropertyValueChars: MAX_REQUEST_PROPERTY_VALUE_CHARS,
    maxTokensPerCall: MAX_TOKENS_PER_CALL,
    maxCallsPerBatch: MAX_CALLS_PER_BATCH,
    maxAddressesPerCall: MAX_ADDRESSES_PER_CALL,
    maxDecimalDigits: MAX_DECIMAL_DIGITS,
    maxSignatureHexLength: MAX_SIGNATURE_HEX_LENGTH,
    hashHexLength: HASH_HEX_LENGTH,
    maxNumberHexLength: MAX_NUMBER_HEX_LENGTH,
    maxCallHexLength: MAX_CALL_HEX_LENGTH,
    maxShortTextLength: MAX_SHORT_TEXT_LENGTH,
    maxUrlFieldLength: MAX_URL_FIELD_LENGTH,
    maxSchemaV2Items: MAX_SCHEMA_V2_ITEMS,
    maxStateQueryArgs: MAX_STATE_QUERY_ARGS,
    maxQuoteChars: MAX_QUOTE_CHARS
  };
}
