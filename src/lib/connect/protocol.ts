// The versioned postMessage protocol between `opalite/connect` (a page of another origin) and
// Opalite's own /connect window (first-party, so it sees the ledger the Opalite tab shows).
// Every message carries `v`; a message of another version, or of a type not listed here, is
// ignored. Version 1 grows only by additions an older side can ignore (new types, new fields);
// the window's `ready` lists in `features` what it does beyond the first release, so a client
// never waits on a message an older Opalite would drop. `v` changes only for a change an older
// side would misread. docs/connect.md describes the exchange; src/lib/connect/validate.ts checks
// what arrives at Opalite, field by field, before anything acts on it.
import { DEFAULT_MAX_UPLOAD_BYTES, MAX_SHORT_TEXT_LENGTH, MAX_URL_LENGTH, MULTIPART_OVERHEAD_BYTES } from '../limits';
import type { SignerPayloadJSON } from '../codec/payload';

export const CONNECT_VERSION = 1;

/** Opalite's page that answers a connecting app (opened as a popup or tab). */
export const CONNECT_PAGE_PATH = '/connect';

/** Largest request body that crosses: an upload (the largest body the API takes) with its framing. */
export const MAX_BRIDGE_BODY_BYTES = DEFAULT_MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES;
/** Longest path (with its query) a request names: the API's URL bound. */
export const MAX_BRIDGE_PATH_LENGTH = MAX_URL_LENGTH;
/** Headers one request may carry over the channel (only a few are forwarded, see relay.ts). */
export const MAX_BRIDGE_HEADERS = 32;
export const MAX_HEADER_NAME_LENGTH = 64;
/** A content type with a multipart boundary fits many times over. */
export const MAX_HEADER_VALUE_LENGTH = 1024;
/** Requests (and signatures) of one connection waiting for their answer at once. */
export const MAX_IN_FLIGHT = 64;
/** Longest method name (methods are short words). */
export const MAX_METHOD_LENGTH = 16;
/** Longest free text in a refusal or failure message. */
export const MAX_MESSAGE_LENGTH = MAX_SHORT_TEXT_LENGTH * 4;
/** Longest name an app gives itself (shown as its claim, beside its origin). */
export const MAX_APP_NAME_LENGTH = 64;
/** Longest `data` of a signRaw: a 64 KiB message as 0x hex (text is shorter). */
export const MAX_SIGN_RAW_DATA_LENGTH = 2 + 2 * 64 * 1024;

/** What this window does beyond version 1's first release; a client checks before it asks. */
export type BridgeFeature = 'accounts' | 'sign-raw';
export const BRIDGE_FEATURES: readonly BridgeFeature[] = ['accounts', 'sign-raw'];

/** A wallet account the person shared with the app: polkadot{.js}'s `InjectedAccount`. */
export interface SharedAccount {
  address: string;
  name: string;
  type: 'sr25519' | 'ed25519';
  /** The sandbox's genesis: Opalite signs for these accounts on this chain only. */
  genesisHash: string | null;
}

export type HeaderList = [name: string, value: string][];

// ---- the connecting app → Opalite ----------------------------------------------------------

/** Asks for the sandbox; Opalite learns the app's origin from this message's `event.origin`. */
export interface HelloMessage {
  v: 1;
  type: 'hello';
  /** The name the app gives itself (polkadot{.js}'s `web3Enable(appName)`), shown as its claim. */
  appName?: string;
}

/** One REST request to the sandbox: `path` is `/sandbox/…` or `/ipfs/<cid>`, with its query. */
export interface RequestMessage {
  v: 1;
  type: 'request';
  id: number;
  method: string;
  path: string;
  headers: HeaderList;
  body: ArrayBuffer | null;
}

/** Asks the person to sign a payload in Opalite's sign dialog. */
export interface SignMessage {
  v: 1;
  type: 'sign';
  id: number;
  /** polkadot's `SignerPayloadJSON`, as `signPayload` of the polkadot{.js} extension takes it. */
  payload: SignerPayloadJSON;
}

/** polkadot{.js}'s `SignerPayloadRaw`: signed as `<Bytes>…</Bytes>`, never as a transaction. */
export interface RawPayload {
  address: string;
  data: string;
  type?: 'bytes' | 'payload';
}

/** Asks the person to sign a message in Opalite's sign dialog (feature `sign-raw`). */
export interface SignRawMessage {
  v: 1;
  type: 'sign-raw';
  id: number;
  raw: RawPayload;
}

/** The app closes the connection. */
export interface ByeMessage {
  v: 1;
  type: 'bye';
}

export type ClientMessage = HelloMessage | RequestMessage | SignMessage | SignRawMessage | ByeMessage;

// ---- Opalite → the connecting app ----------------------------------------------------------

/** The Opalite window is listening: send `hello` (it carries nothing, so it goes to any opener origin). */
export interface LoadedMessage {
  v: 1;
  type: 'loaded';
}

/** The person allowed this origin: requests are relayed to the REST API at `apiPath`. */
export interface ReadyMessage {
  v: 1;
  type: 'ready';
  apiPath: string;
  /** The accounts shared with the app now (feature `accounts`). */
  accounts: SharedAccount[];
  features: readonly BridgeFeature[];
}

/** The shared accounts changed (the person chose others, renamed one, removed one): the whole list. */
export interface AccountsMessage {
  v: 1;
  type: 'accounts';
  accounts: SharedAccount[];
}

export type RefusalReason = 'denied' | 'revoked' | 'unsupported-origin';

/** Denied now, revoked later, or an origin that cannot connect (opaque, or plain http on the network). */
export interface RefusedMessage {
  v: 1;
  type: 'refused';
  reason: RefusalReason;
  message: string;
}

/** The answer of one request; `body` is transferred, never copied. */
export interface ResponseMessage {
  v: 1;
  type: 'response';
  id: number;
  status: number;
  headers: HeaderList;
  body: ArrayBuffer | null;
}

export interface SignedMessage {
  v: 1;
  type: 'signed';
  id: number;
  signature: string;
}

export type SignFailure = 'cancelled' | 'refused' | 'invalid';

export interface SignFailedMessage {
  v: 1;
  type: 'sign-failed';
  id: number;
  reason: SignFailure;
  message: string;
}

/** The Opalite window is going away (Disconnect, navigation, closing). */
export interface ClosedMessage {
  v: 1;
  type: 'closed';
}

export type OpaliteMessage = LoadedMessage | ReadyMessage | AccountsMessage | RefusedMessage | ResponseMessage | SignedMessage | SignFailedMessage | ClosedMessage;
