// The publish plan: the steps that recreate a source collection on another network, in order
// (upload files, create the collection with everything creation takes, add admins, mint tokens
// in chunks within the API's bounds, nest bundles deepest first, hand tokens to their owners, and
// turn transfers off last when the source has them off). Each step's call is built when it runs,
// from the run's context (the new collection id, the files' target CIDs). Pure.
import { countText } from '../format';
import { API_BOUNDS, bodyBytes, planSignatures } from '../mint-run';
import type { CollectionLimits, MutationRequest } from '../types';
import { cidsOfProperties, rewriteProperties } from './images';
import type { SourceCollection, SourceToken } from './source';

export type PublishStep =
  | { kind: 'upload'; key: string; cid: string; bytes: number }
  | { kind: 'create'; key: string }
  | { kind: 'admin'; key: string; admin: string }
  | { kind: 'mint'; key: string; tokenIds: number[]; firstTarget: number }
  | { kind: 'nest'; key: string; child: number; parent: number }
  | { kind: 'transfer'; key: string; tokenId: number; to: string }
  | { kind: 'limits'; key: string; limits: Partial<CollectionLimits> };

export interface PublishPlan {
  source: SourceCollection;
  signer: string;
  steps: PublishStep[];
  /** Source token id → the id it gets on the target (tokens are minted in id order into a new collection). */
  targetIds: Record<number, number>;
  /** What the plan cannot copy, in words (publishing still runs without it). */
  notes: string[];
  /** What stops the plan from running at all. */
  problems: string[];
}

/** What a step's call needs that only the run knows. */
export interface RunContext {
  collectionId: number | null;
  /** Source CID → the target's CID and file URL. */
  files: Readonly<Record<string, { cid: string; fileUrl: string }>>;
  /** The source's gateway (`<origin>/ipfs`), whose URLs are rewritten to the target's. */
  sourceGateway: string | null;
}

export interface FileInfo {
  cid: string;
  bytes: number;
}

/** The bytes of `hex` (0x…) equal the UTF-8 of `value`: a property a text value can carry. */
function textCarries(value: string, hex: string | undefined): boolean {
  if (!hex) return true;
  const bytes = new TextEncoder().encode(value);
  const clean = hex.replace(/^0x/, '').toLowerCase();
  return clean === Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Depth of a token in its bundle (0: not nested). */
function depthOf(token: SourceToken, byId: ReadonlyMap<number, SourceToken>): number {
  let depth = 0;
  let parent = token.parent;
  while (parent !== null && depth <= byId.size) {
    depth++;
    parent = byId.get(parent)?.parent ?? null;
  }
  return depth;
}

function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

export function stepTitle(step: PublishStep, plan: Pick<PublishPlan, 'source' | 'targetIds'>): string {
  switch (step.kind) {
    case 'upload':
      return `Upload file ${step.cid.slice(0, 10)}…`;
    case 'create':
      return `Create collection “${plan.source.name}”`;
    case 'admin':
      return `Add admin ${shortAddress(step.admin)}`;
    case 'mint': {
      const first = step.tokenIds[0];
      const last = step.tokenIds[step.tokenIds.length - 1];
      return `Mint ${countText(step.tokenIds.length, 'token')} (${first === last ? `source token ${first}` : `source tokens ${first}–${last}`})`;
    }
    case 'nest':
      return `Nest token ${plan.targetIds[step.child]} into token ${plan.targetIds[step.parent]}`;
    case 'transfer':
      return `Send token ${plan.targetIds[step.tokenId]} to ${shortAddress(step.to)}`;
    case 'limits':
      return 'Turn token transfers off';
  }
}

export function isExtrinsic(step: PublishStep): boolean {
  return step.kind !== 'upload';
}

/** Tokens bounded per call by the API: count and request body bytes. */
function mintChunks(tokens: readonly SourceToken[], signer: string, inBundle: ReadonlySet<number>): SourceToken[][] {
  const sizes = tokens.map((t) => bodyBytes({ owner: inBundle.has(t.tokenId) ? signer : t.owner, properties: t.properties.map((p) => ({ key: p.key, value: p.value })) }));
  return planSignatures(sizes, { ...API_BOUNDS, callsPerSignature: 1 }).map((calls) => calls.flat().map((i) => tokens[i]));
}

export function buildPlan(source: SourceCollection, signer: string, files: readonly FileInfo[]): PublishPlan {
  const notes: string[] = [];
  const problems: string[] = [];
  const steps: PublishStep[] = [];
  const byId = new Map(source.tokens.map((t) => [t.tokenId, t]));

  const cids = cidsOfProperties([source.properties, ...source.tokens.map((t) => t.properties)]);
  const sizes = new Map(files.map((f) => [f.cid, f.bytes]));
  for (const cid of cids) {
    if (!sizes.has(cid)) problems.push(`The file ${cid} is not in this network's file store: it cannot be uploaded to the target`);
    else steps.push({ kind: 'upload', key: `upload:${cid}`, cid, bytes: sizes.get(cid)! });
  }

  const binary = [
    ...source.properties.filter((p) => !textCarries(p.value, p.valueHex)).map((p) => `collection property “${p.key}”`),
    ...source.tokens.flatMap((t) => t.properties.filter((p) => !textCarries(p.value, p.valueHex)).map((p) => `property “${p.key}” of token ${t.tokenId}`))
  ];
  if (binary.length) problems.push(`Binary values cannot be copied as text: ${binary.slice(0, 5).join(', ')}${binary.length > 5 ? ` and ${binary.length - 5} more` : ''}`);
  if (source.sponsor) notes.push(`The source's sponsor ${source.sponsor} is not copied: propose a sponsor on the target, and it confirms there itself`);
  if (source.owner !== signer) notes.push(`The source collection belongs to ${source.owner}; on the target it will belong to the signer ${signer}`);

  steps.push({ kind: 'create', key: 'create' });
  for (const admin of source.admins) if (admin !== signer) steps.push({ kind: 'admin', key: `admin:${admin}`, admin });

  // Tokens of a bundle are minted to the signer (who may nest them), then the tops go to their owners.
  const inBundle = new Set<number>();
  for (const token of source.tokens) {
    if (token.parent === null) continue;
    if (!byId.has(token.parent)) problems.push(`Token ${token.tokenId} is nested in token ${token.parent}, which is not in the collection`);
    for (let t: SourceToken | undefined = token; t; t = t.parent === null ? undefined : byId.get(t.parent)) {
      if (inBundle.has(t.tokenId) && t !== token) break;
      inBundle.add(t.tokenId);
    }
  }
  const targetIds: Record<number, number> = {};
  source.tokens.forEach((t, i) => (targetIds[t.tokenId] = i + 1));
  let position = 1;
  for (const chunk of mintChunks(source.tokens, signer, inBundle)) {
    steps.push({ kind: 'mint', key: `mint:${chunk[0].tokenId}-${chunk[chunk.length - 1].tokenId}`, tokenIds: chunk.map((t) => t.tokenId), firstTarget: position });
    position += chunk.length;
  }
  const nested = source.tokens.filter((t) => t.parent !== null && byId.has(t.parent));
  nested.sort((a, b) => depthOf(b, byId) - depthOf(a, byId) || a.tokenId - b.tokenId);
  for (const token of nested) steps.push({ kind: 'nest', key: `nest:${token.tokenId}`, child: token.tokenId, parent: token.parent! });
  for (const token of source.tokens) {
    if (token.parent === null && inBundle.has(token.tokenId) && token.owner !== signer) steps.push({ kind: 'transfer', key: `transfer:${token.tokenId}`, tokenId: token.tokenId, to: token.owner });
  }
  if (source.limits.transfersEnabled === false && source.tokens.length) steps.push({ kind: 'limits', key: 'limits', limits: { transfersEnabled: false } });
  return { source, signer, steps, targetIds, notes, problems };
}

/** The limits creation takes: transfers stay on while the run sends tokens (a later step turns them off). */
function creationLimits(source: SourceCollection): Partial<CollectionLimits> {
  const limits = { ...source.limits };
  if (limits.transfersEnabled === false && source.tokens.length) delete limits.transfersEnabled;
  return limits;
}

/** The mint body of one source token in a step. */
function mintItem(plan: PublishPlan, tokenId: number, context: RunContext, bundled: boolean) {
  const token = plan.source.tokens.find((t) => t.tokenId === tokenId)!;
  return { owner: bundled ? plan.signer : token.owner, properties: rewriteProperties(token.properties, context.files, context.sourceGateway) };
}

/** Tokens minted to the signer first: members of a bundle. */
export function bundleMembers(plan: PublishPlan): Set<number> {
  const members = new Set<number>();
  for (const step of plan.steps) {
    if (step.kind === 'nest') members.add(step.child).add(step.parent);
  }
  return members;
}

/** The REST call of an extrinsic step, or null for an upload. Throws when the collection is not created yet. */
export function callOf(step: PublishStep, plan: PublishPlan, context: RunContext): MutationRequest | null {
  const { source, signer } = plan;
  const address = signer;
  if (step.kind === 'upload') return null;
  if (step.kind === 'create') {
    const body: Record<string, unknown> = {
      address,
      name: source.name,
      description: source.description,
      tokenPrefix: source.tokenPrefix,
      mode: 'NFT',
      permissions: source.permissions,
      properties: rewriteProperties(source.properties, context.files, context.sourceGateway)
    };
    const limits = creationLimits(source);
    if (Object.keys(limits).length) body.limits = limits;
    if (source.tokenPropertyPermissions.length) body.tokenPropertyPermissions = source.tokenPropertyPermissions;
    return { method: 'POST', path: '/collections', body };
  }
  const collectionId = context.collectionId;
  if (collectionId === null) throw new Error('The collection is not created on the target yet');
  const target = (tokenId: number) => ({ collectionId, tokenId: plan.targetIds[tokenId] });
  switch (step.kind) {
    case 'admin':
      return { method: 'POST', path: '/collections/admins', body: { address, collectionId, newAdmin: step.admin } };
    case 'mint': {
      const members = bundleMembers(plan);
      return { method: 'POST', path: '/tokens/create-multiple', body: { address, collectionId, tokens: step.tokenIds.map((id) => mintItem(plan, id, context, members.has(id))) } };
    }
    case 'nest':
      return { method: 'POST', path: '/tokens/nest', body: { address, parent: target(step.parent), nested: target(step.child) } };
    case 'transfer':
      return { method: 'PATCH', path: '/tokens/transfer', body: { address, ...target(step.tokenId), to: step.to } };
    case 'limits':
      return { method: 'POST', path: '/collections/set-limits', body: { address, collectionId, limits: step.limits } };
  }
}

/** "3 files, 7 extrinsics". */
export function planSummary(plan: PublishPlan): { uploads: number; extrinsics: number; bytes: number } {
  const uploads = plan.steps.filter((s) => s.kind === 'upload') as Extract<PublishStep, { kind: 'upload' }>[];
  return { uploads: uploads.length, extrinsics: plan.steps.length - uploads.length, bytes: uploads.reduce((n, s) => n + s.bytes, 0) };
}
