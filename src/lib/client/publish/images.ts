// Files a collection refers to: IPFS CIDs inside property values (a bare CID, ipfs://CID, or a
// gateway URL such as the sandbox's own `<origin>/ipfs/<cid>`), and their rewriting to the CIDs
// and URLs the target's file store gives them.
import type { Property } from '../types';

/** A CIDv0 (Qm…) or a base32 CIDv1 (b…), anywhere in a text. */
const CID_IN_TEXT = /\b(Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{58,})\b/g;

/** The CIDs a property value names, in order of first mention. */
export function cidsIn(value: string): string[] {
  return [...new Set([...value.matchAll(CID_IN_TEXT)].map((m) => m[1]))];
}

/** Every CID the properties name, each once. */
export function cidsOfProperties(lists: readonly (readonly Property[])[]): string[] {
  const found = new Set<string>();
  for (const list of lists) for (const property of list) for (const cid of cidsIn(property.value ?? '')) found.add(cid);
  return [...found];
}

/**
 * `value` with each source CID replaced by the target's, and each URL on the source's own gateway
 * (`sourceGateway/<cid>`) by the target's file URL. CIDs are content addresses, so an equal CID
 * leaves the value as it is.
 */
export function rewriteValue(value: string, files: Readonly<Record<string, { cid: string; fileUrl: string }>>, sourceGateway: string | null): string {
  let out = value;
  if (sourceGateway) {
    const gateway = sourceGateway.replace(/\/+$/, '');
    for (const [cid, target] of Object.entries(files)) out = out.split(`${gateway}/${cid}`).join(target.fileUrl);
  }
  return out.replace(CID_IN_TEXT, (cid) => files[cid]?.cid ?? cid);
}

export function rewriteProperties(properties: readonly Property[], files: Readonly<Record<string, { cid: string; fileUrl: string }>>, sourceGateway: string | null): { key: string; value: string }[] {
  return properties.map((p) => ({ key: p.key, value: rewriteValue(p.value ?? '', files, sourceGateway) }));
}
