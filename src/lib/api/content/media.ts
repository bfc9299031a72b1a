// Media references ({ipfsCid} | {url} | {urlInfix}, plus hash): input checks and fullUrl.
import { quote } from '../../limits';
import { ContentError } from './errors';
import { INFIX } from './library';
import { isGiven, isRecord } from './shape';

export const MEDIA_SOURCES = ['ipfsCid', 'url', 'urlInfix'] as const;
export type MediaSource = (typeof MEDIA_SOURCES)[number];

/** A media reference as stored: exactly one source, optional hash. */
export type MediaInput = { [K in MediaSource]?: string } & { hash?: string };

/** A media reference as read back, with the URL a browser can load. */
export type DecodedMedia = MediaInput & { fullUrl: string | null };

/** Schemes a media URL may use: anything else (`javascript:`, `vbscript:`, `file:`) could run or leak when opened. */
const MEDIA_SCHEMES = new Set(['http:', 'https:', 'ipfs:']);

/** The URL `text` as a browser parses it (tabs, newlines and leading spaces dropped), or null when relative or malformed. */
function absoluteUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function isAllowedUrl(url: URL): boolean {
  return MEDIA_SCHEMES.has(url.protocol) || (url.protocol === 'data:' && /^image\//i.test(url.pathname));
}

/** True unless `text` is an absolute URL of a scheme media may not use (relative text is allowed). */
export function isSafeMediaText(text: string): boolean {
  const url = absoluteUrl(text);
  return url === null || isAllowedUrl(url);
}

const ALLOWED_SCHEMES = 'http(s), ipfs:// or data:image';

/**
 * Checks one media object the way the library's validator does (one string source, `url` must
 * parse, `hash` a string) and returns only the known fields, so echoed read fields (`fullUrl`)
 * are dropped and `hash: null` means no hash.
 */
export function checkMedia(value: unknown, path: string): MediaInput {
  if (!isRecord(value)) throw new ContentError(`${path} must be an object with exactly one of ipfsCid, url or urlInfix`);
  const sources = MEDIA_SOURCES.filter((source) => isGiven(value[source]));
  if (sources.length !== 1) throw new ContentError(`${path} must have exactly one of ipfsCid, url or urlInfix`);
  const source = sources[0];
  const text = value[source];
  if (typeof text !== 'string') throw new ContentError(`${path}.${source} must be a string`);
  if (source === 'url') {
    const url = absoluteUrl(text);
    if (url === null) throw new ContentError(`${path}.url must be a valid absolute URL, got "${quote(text)}"`);
    if (!isAllowedUrl(url)) throw new ContentError(`${path}.url must be an ${ALLOWED_SCHEMES} URL, got "${quote(text)}"`);
  }
  // A bare `{infix}` template makes the infix the whole URL.
  if (source === 'urlInfix' && !isSafeMediaText(text)) {
    throw new ContentError(`${path}.urlInfix must not be a URL of another scheme than ${ALLOWED_SCHEMES}, got "${quote(text)}"`);
  }
  const media: MediaInput = { [source]: text };
  if (isGiven(value.hash)) {
    if (typeof value.hash !== 'string') throw new ContentError(`${path}.hash must be a string`);
    media.hash = value.hash;
  }
  return media;
}

/**
 * The library's fullUrl rule (url as is; else the template with {infix} replaced; else ipfs://cid;
 * else null), except that a CID under the bare '{infix}' template (Opalite's default schema) points
 * at the built-in IPFS gateway, so uploaded files show.
 */
export function mediaFullUrl(media: MediaInput, urlTemplate: unknown, ipfsGateway: string): string | null {
  if (typeof media.url === 'string') return media.url;
  if (urlTemplate === INFIX && typeof media.ipfsCid === 'string') return `${ipfsGateway.replace(/\/+$/, '')}/${media.ipfsCid}`;
  if (typeof urlTemplate === 'string' && urlTemplate.includes(INFIX)) {
    if (typeof media.urlInfix === 'string') return urlTemplate.replace(INFIX, media.urlInfix);
    if (typeof media.ipfsCid === 'string') return urlTemplate.replace(INFIX, media.ipfsCid);
    return null;
  }
  return typeof media.ipfsCid === 'string' ? `ipfs://${media.ipfsCid}` : null;
}

/** A stored media reference with its fullUrl (its own fields first, as the library returns them). */
export function decodeMedia(media: MediaInput, urlTemplate: unknown, ipfsGateway: string): DecodedMedia {
  const fullUrl = mediaFullUrl(media, urlTemplate, ipfsGateway);
  // Raw token properties bypass the input checks: a URL of another scheme is never handed out to open.
  return { ...media, fullUrl: fullUrl !== null && !isSafeMediaText(fullUrl) ? null : fullUrl };
}
