// The one signing rule. Every path that signs for a person or a custodial seed (the app's sign
// dialog, `use=Sign` and `/extrinsic/sign`, the bridge's `signPayload` and `signRaw`) asks this
// module for the bytes: it signs nothing a caller encoded, only what it rebuilds here from a
// payload it has checked. A payload is refused, with the reason, when its extension list is not
// exactly the chain's (fewer extensions would leave the genesis, the era or the nonce out of the
// signed bytes: one signature valid at every nonce, on every chain), when its genesis hash is not
// the chain's, when it carries a tip (paid beyond the fee, and shown nowhere), or when its `method`
// does not decode completely (bytes the person was not shown).
import { decodeCall } from './calls';
import type { Call } from './call-types';
import { fromHex, isHex, toHex } from './hash';
import { KNOWN_EXTENSIONS, PayloadError, encodeExtrinsicPayload, signerPayloadHex, tipOf, type SignerPayloadJSON } from './payload';

/** The chain a signature is for, as the signer knows it (not as the payload says). */
export interface SigningChain {
  /** `0x` + 32 bytes. */
  genesisHash: string;
  /**
   * The chain's signed extensions, exactly and in order (an Opalite ledger says them in its chain
   * properties). Absent for a service that does not say (the real Unique REST API): then every
   * extension must be one this module can encode, each at most once, and ESSENTIAL_EXTENSIONS
   * must all be there, so the genesis, era, nonce and spec version are inside the signed bytes.
   */
  signedExtensions?: readonly string[];
}

/** Without these the signed bytes would not pin the chain, the era, the nonce or the runtime. */
export const ESSENTIAL_EXTENSIONS: readonly string[] = ['CheckSpecVersion', 'CheckGenesis', 'CheckMortality', 'CheckNonce'];

export type SigningRefusal = 'payload' | 'extensions' | 'genesis' | 'method' | 'tip' | 'raw';

/** Why a payload is not signed; the message says what to change. Nothing was signed. */
export class SigningRuleError extends Error {
  override readonly name = 'SigningRuleError';
  constructor(
    readonly reason: SigningRefusal,
    message: string
  ) {
    super(message);
  }
}

/** What the rule lets a signer sign: the exact bytes, and the call they carry (for the person to read). */
export interface CheckedPayload {
  /** The signing message: the SCALE payload, or its blake2b-256 hash when longer than 256 bytes. */
  message: Uint8Array;
  /** `message` as hex (what the REST service calls `signerPayloadHex`). */
  messageHex: string;
  call: Call;
}

function extensionsOf(json: SignerPayloadJSON): string[] {
  const list = (json as { signedExtensions?: unknown }).signedExtensions;
  if (!Array.isArray(list) || list.some((name) => typeof name !== 'string')) {
    throw new SigningRuleError('extensions', 'signerPayloadJSON.signedExtensions must be a list of extension names');
  }
  return list as string[];
}

function checkExtensions(named: string[], chain: SigningChain): void {
  if (chain.signedExtensions) {
    const expected = chain.signedExtensions;
    if (named.length !== expected.length || named.some((name, i) => name !== expected[i])) {
      throw new SigningRuleError('extensions', `signerPayloadJSON.signedExtensions must be exactly this chain's: ${expected.join(', ')}`);
    }
    return;
  }
  const unknown = named.find((name) => !KNOWN_EXTENSIONS.has(name));
  if (unknown !== undefined) throw new SigningRuleError('extensions', `signerPayloadJSON.signedExtensions names ${JSON.stringify(unknown.slice(0, 64))}, an extension Opalite cannot encode`);
  if (new Set(named).size !== named.length) throw new SigningRuleError('extensions', 'signerPayloadJSON.signedExtensions lists an extension twice');
  const missing = ESSENTIAL_EXTENSIONS.filter((name) => !named.includes(name));
  if (missing.length > 0) {
    throw new SigningRuleError('extensions', `signerPayloadJSON.signedExtensions leaves out ${missing.join(', ')}: the signature would not be tied to one chain, era and nonce`);
  }
}

function sameHash(a: unknown, b: string): boolean {
  return isHex(a) && isHex(b) && a.length === 66 && a.toLowerCase() === b.toLowerCase();
}

/**
 * The bytes to sign for `json` on `chain`, and its call; throws SigningRuleError (or PayloadError
 * for a field that cannot be encoded) when the rule refuses it.
 */
export function checkSignerPayload(json: SignerPayloadJSON, chain: SigningChain): CheckedPayload {
  const messageHex = toHex(payloadMessage(json, chain));
  // CheckGenesis is in the list (above), so the genesis hash compared here is inside the signed bytes.
  if (!sameHash(json.genesisHash, chain.genesisHash)) {
    throw new SigningRuleError('genesis', `The payload is for another chain (genesisHash ${String(json.genesisHash).slice(0, 66)}, this chain is ${chain.genesisHash}): nothing is signed for a chain the signer did not choose`);
  }
  // A tip is paid beyond the fee, on a real chain too, and no dialog shows it: Opalite signs none (its own builds carry 0).
  const tip = tipOf(json);
  if (tip !== 0n) {
    throw new SigningRuleError('tip', `The payload carries a tip of ${tip} (smallest units), paid beyond the fee: nothing with a tip is signed; build it again without one`);
  }
  if (!isHex(json.method)) throw new SigningRuleError('method', 'signerPayloadJSON.method must be 0x hex');
  let call: Call;
  try {
    call = decodeCall(fromHex(json.method));
  } catch (error) {
    throw new SigningRuleError('method', `signerPayloadJSON.method does not decode completely: ${(error as Error).message}`);
  }
  return { message: fromHex(messageHex), messageHex, call };
}

/**
 * The signing message of `json` when its extensions are the chain's (the part of the rule a
 * verifier needs too: a signature over fewer extensions is never accepted); genesis and call are
 * the verifier's own checks. Throws SigningRuleError or PayloadError.
 */
export function payloadMessage(json: SignerPayloadJSON, chain: SigningChain): Uint8Array {
  if (typeof json !== 'object' || json === null) throw new SigningRuleError('payload', 'signerPayloadJSON must be an object');
  checkExtensions(extensionsOf(json), chain);
  return fromHex(signerPayloadHex(encodeExtrinsicPayload(json)));
}

/** As checkSignerPayload, and the message must equal `claimedHex` (a service's `signerPayloadHex`). */
export function checkBuiltPayload(json: SignerPayloadJSON, claimedHex: string, chain: SigningChain): CheckedPayload {
  const checked = checkSignerPayload(json, chain);
  if (typeof claimedHex !== 'string' || checked.messageHex !== claimedHex.toLowerCase()) {
    throw new SigningRuleError('payload', 'The service’s signerPayloadHex is not the payload it describes: nothing is signed');
  }
  return checked;
}

const WRAP_PREFIX = new TextEncoder().encode('<Bytes>');
const WRAP_POSTFIX = new TextEncoder().encode('</Bytes>');

function startsWith(bytes: Uint8Array, part: Uint8Array, at: number): boolean {
  if (at < 0 || at + part.length > bytes.length) return false;
  for (let i = 0; i < part.length; i++) if (bytes[at + i] !== part[i]) return false;
  return true;
}

/** What `signRaw` signs and shows: the data wrapped as `<Bytes>…</Bytes>`, and the inner message as text or hex. */
export interface RawMessage {
  message: Uint8Array;
  /** The inner data as text when it is printable UTF-8, else null (show `hex`). */
  text: string | null;
  hex: string;
}

/**
 * polkadot{.js}'s `signRaw` for `{ data, type: 'bytes' }`: the data is always signed wrapped in
 * `<Bytes>…</Bytes>` (already wrapped data is not wrapped twice), so a raw signature can never be a
 * transaction's. `type: 'payload'` is refused: a transaction is signed through `signPayload`, where
 * the rule above applies.
 */
export function rawSigningMessage(raw: { data?: unknown; type?: unknown }, maxBytes: number): RawMessage {
  if (raw.type !== undefined && raw.type !== 'bytes') {
    throw new SigningRuleError('raw', 'signRaw signs only { type: "bytes" } data; sign a transaction with signPayload');
  }
  const data = raw.data;
  let bytes: Uint8Array;
  if (isHex(data)) bytes = fromHex(data);
  else if (typeof data === 'string') bytes = new TextEncoder().encode(data);
  else throw new SigningRuleError('raw', 'signRaw data must be a string (0x hex or text)');
  if (bytes.length > maxBytes) throw new SigningRuleError('raw', `signRaw data is ${bytes.length} bytes; at most ${maxBytes} are signed`);
  const wrapped = startsWith(bytes, WRAP_PREFIX, 0) && startsWith(bytes, WRAP_POSTFIX, bytes.length - WRAP_POSTFIX.length) && bytes.length >= WRAP_PREFIX.length + WRAP_POSTFIX.length;
  const inner = wrapped ? bytes.subarray(WRAP_PREFIX.length, bytes.length - WRAP_POSTFIX.length) : bytes;
  const message = new Uint8Array(WRAP_PREFIX.length + inner.length + WRAP_POSTFIX.length);
  message.set(WRAP_PREFIX, 0);
  message.set(inner, WRAP_PREFIX.length);
  message.set(WRAP_POSTFIX, WRAP_PREFIX.length + inner.length);
  return { message, text: printableText(inner), hex: toHex(inner) };
}

/**
 * Characters that would hide or reorder what is signed when shown as text: controls other than tab
 * and line breaks, format characters (zero-width, direction marks and overrides, tags, soft hyphen,
 * byte-order mark), line and paragraph separators, private-use and unassigned code points (which
 * code points are unassigned depends on the engine's Unicode version: a newer character may show as hex).
 */
const HIDES_TEXT = /[^\P{Cc}\t\n\r]|[\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;

function printableText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  // A single joiner between two visible characters shapes them (an emoji sequence, Persian, Indic script) and hides nothing.
  const unjoined = text.replace(/(?<=[^\s\u200c\u200d])[\u200c\u200d](?=[^\s\u200c\u200d])/gu, '');
  return HIDES_TEXT.test(unjoined) ? null : text;
}

export { PayloadError };
