// Small pure helpers for showing what the API answers: addresses, amounts, texts, images,
// nesting addresses, image inputs.
import type { LocalizedText, Media, TokenRef } from './types';

/** `5Grw…utQY` */
export function shortAddress(address: string, keep = 6): string {
  if (!address || address.length <= keep * 2 + 1) return address;
  return `${address.slice(0, keep)}…${address.slice(-4)}`;
}

/** The default-language text of a localized value (`{_: 'x', fr: 'y'}` → `x`). */
export function localized(value: LocalizedText | string | null | undefined | unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object' && '_' in (value as object)) return String((value as { _: unknown })._);
  return JSON.stringify(value);
}

/** An attribute value for reading: enums and lists included. */
export function attributeText(value: unknown): string {
  if (Array.isArray(value)) return value.map(attributeText).join(', ');
  return localized(value);
}

const NESTING_PREFIX = '0xf8238ccfff8ed887463fd5e0';

/** The token a nesting address stands for (`0xf8238ccfff8ed887463fd5e0` + collection + token), or null. */
export function nestingTarget(address: string): TokenRef | null {
  const lower = address.toLowerCase();
  if (!lower.startsWith(NESTING_PREFIX) || lower.length !== 42) return null;
  const collectionId = Number.parseInt(lower.slice(26, 34), 16);
  const tokenId = Number.parseInt(lower.slice(34, 42), 16);
  return Number.isFinite(collectionId) && Number.isFinite(tokenId) ? { collectionId, tokenId } : null;
}

/** The address a token is reachable at when something is nested in it. */
export function tokenAddress(ref: TokenRef): string {
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${NESTING_PREFIX}${hex(ref.collectionId)}${hex(ref.tokenId)}`;
}

const SAFE_MEDIA_SCHEMES = new Set(['http:', 'https:', 'ipfs:', 'blob:']);

/**
 * `url` if a page may show it as an image or link to it: http(s), ipfs, blob, `data:image/…`, or
 * a path on this site; null for anything else (`javascript:`, `vbscript:`, `data:text/html`, …).
 * Parsed as the browser would, so spellings such as ` JaVa\tScript:` are caught too.
 */
export function safeMediaUrl(url: string | null | undefined): string | null {
  if (typeof url !== 'string') return null;
  const text = url.trim();
  if (text === '') return null;
  let parsed: URL;
  try {
    // A relative URL (no scheme) resolves to a path of this site.
    parsed = new URL(text, 'https://relative.invalid/');
  } catch {
    return null;
  }
  if (SAFE_MEDIA_SCHEMES.has(parsed.protocol)) return text;
  if (parsed.protocol === 'data:' && /^image\//i.test(parsed.pathname)) return text;
  return null;
}

/** The URL an `<img>` should load for a media object (only a safe one, see safeMediaUrl), or null. */
export function mediaUrl(media: Media | null | undefined): string | null {
  if (!media) return null;
  return safeMediaUrl(media.fullUrl || media.url || null);
}

// CIDv0 (Qm + 44 base58) and CIDv1 in base32 (b…), the forms IPFS tools print.
const CID = /^(Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{20,})$/;

export function isCid(value: string): boolean {
  return CID.test(value.trim());
}

/**
 * The image object of mint `data` for what a person typed: a CID → `{ipfsCid}`, an `ipfs://` URI
 * → `{ipfsCid}`, anything else that looks like a URL → `{url}`. Empty → undefined.
 */
export function imageInput(value: string | null | undefined): { ipfsCid: string } | { url: string } | undefined {
  const text = (value ?? '').trim();
  if (text === '') return undefined;
  if (text.startsWith('ipfs://')) return { ipfsCid: text.slice('ipfs://'.length).replace(/^ipfs\//, '') };
  if (isCid(text)) return { ipfsCid: text };
  return { url: text };
}

/** "1 token", "2 tokens", "0 tokens": a count with its noun agreeing. */
export function countText(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

/** Ids as a person reads them: runs of three or more as ranges (`[1, 2, 3, 5]` → "1–3, 5"). */
export function idRanges(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length; ) {
    let end = i;
    while (end + 1 < ids.length && ids[end + 1] === ids[end] + 1) end++;
    if (end - i >= 2) parts.push(`${ids[i]}–${ids[end]}`);
    else for (let k = i; k <= end; k++) parts.push(String(ids[k]));
    i = end + 1;
  }
  return parts.join(', ');
}

/** A file size as file managers show it: "812 bytes", "340 KB", "10.8 MB" (1 KB = 1024 bytes). */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return countText(bytes, 'byte');
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}

/** `1234.5` OPL with the unit; amounts arrive as decimal strings already scaled. */
export function amountText(amount: { amount: string; unit: string } | null | undefined): string {
  if (!amount) return '';
  const [whole, fraction = ''] = amount.amount.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const shown = fraction.slice(0, 4).replace(/0+$/, '');
  return `${grouped}${shown ? `.${shown}` : ''} ${amount.unit}`;
}

/** Fraction digits a smallest-unit amount shows before it is marked approximate (as amountText shows). */
const SHOWN_FRACTION_DIGITS = 4;

/** Units of at most this many decimals are always shown exactly (a Fungible collection's, typically). */
const EXACT_DECIMALS = 8;

/**
 * A smallest-unit amount (`raw`, an integer or its decimal string) in whole units with `unit`:
 * `1 134.25 GLD`. Exact for units of up to 8 decimals; otherwise up to 4 fraction digits (more
 * when needed to show anything but 0), and an amount cut short says so with `≈`, so a sign dialog
 * never shows a rounded number as exact.
 */
export function unitsText(raw: bigint | string, decimals: number, unit: string): string {
  const value = BigInt(raw);
  const abs = value < 0n ? -value : value;
  const base = 10n ** BigInt(decimals);
  const digits = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  const firstSignificant = digits.search(/[1-9]/);
  const keep = decimals <= EXACT_DECIMALS ? decimals : abs >= base || firstSignificant < 0 ? SHOWN_FRACTION_DIGITS : Math.max(SHOWN_FRACTION_DIGITS, firstSignificant + 2);
  const fraction = digits.slice(0, keep).replace(/0+$/, '');
  const grouped = (abs / base).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const approximate = fraction.length < digits.length ? '≈' : '';
  return `${value < 0n ? '−' : ''}${approximate}${grouped}${fraction ? `.${fraction}` : ''}${unit ? ` ${unit}` : ''}`;
}

/** A day as the person's locale writes it, short: "26 Nov 2026", "Nov 26, 2026". */
export function dayText(at: number): string {
  return new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** "12 s ago", "3 min ago", or a date. */
export function timeAgo(at: number, now = Date.now()): string {
  const seconds = Math.round((now - at) / 1000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(at).toLocaleString();
}

/** A JSON value in readable, stable form (bigint-safe). */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2) ?? 'null';
}

const CALL_TITLES: Record<string, string> = {
  'balances.transfer': 'Transfer funds',
  'balances.transferKeepAlive': 'Transfer funds',
  'balances.transferAllowDeath': 'Transfer funds',
  'unique.createCollectionEx': 'Create a collection',
  'unique.createMultipleItems': 'Mint tokens',
  'unique.repartition': 'Repartition a token',
  'unique.destroyCollection': 'Destroy a collection',
  'unique.createItem': 'Mint a token',
  'unique.createMultipleItemsEx': 'Mint tokens',
  'unique.transfer': 'Transfer a token',
  'unique.transferFrom': 'Transfer a token',
  'unique.burnItem': 'Burn a token',
  'unique.burnFrom': 'Burn a token',
  'unique.approve': 'Approve a spender',
  'unique.setAllowanceForAll': 'Approve an operator for all tokens',
  'unique.setTokenProperties': 'Set token properties',
  'unique.deleteTokenProperties': 'Delete token properties',
  'unique.setCollectionProperties': 'Set collection properties',
  'unique.deleteCollectionProperties': 'Delete collection properties',
  'unique.setTokenPropertyPermissions': 'Set token property permissions',
  'unique.setCollectionLimits': 'Set collection limits',
  'unique.setCollectionPermissions': 'Set collection permissions',
  'unique.setTransfersEnabledFlag': 'Turn transfers on or off',
  'unique.changeCollectionOwner': 'Change the collection owner',
  'unique.addCollectionAdmin': 'Add a collection admin',
  'unique.removeCollectionAdmin': 'Remove a collection admin',
  'unique.setCollectionSponsor': 'Propose a sponsor',
  'unique.confirmSponsorship': 'Confirm sponsorship',
  'unique.removeCollectionSponsor': 'Remove the sponsor',
  'unique.addToAllowList': 'Add to the allow list',
  'unique.removeFromAllowList': 'Remove from the allow list'
};

/** A person's words for a chain call (`unique.createItem` → "Mint a token"). */
export function callTitle(section: string, method: string): string {
  return CALL_TITLES[`${section}.${method}`] ?? `${section}.${method}`;
}

/** The standard development accounts (public keys, funded at genesis of a dev chain). */
export const DEV_ACCOUNTS: Record<string, string> = {
  '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY': '//Alice',
  '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty': '//Bob',
  '5FLSigC9HGRKVhB9FiEo4Y3koPsNmBmLJbpXg2mp1hXcS59Y': '//Charlie',
  '5DAAnrj7VHTznn2AWBemMuyBwZWs6FNFjdyVXUeYum3PTXFy': '//Dave',
  '5HGjWAeFDfFCWPsjFQdVV2Msvz2XtMktvgocEZcCj68kUMaw': '//Eve',
  '5CiPPseXPECbkjWCa6MnjNokrgYjMqmKndv2rSnekmSK2DjL': '//Ferdie'
};
