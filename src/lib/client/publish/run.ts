// Runs a publish plan on the target, step by step, and resumes one: before each step it reads the
// TARGET's state and skips what is already there (a file by its CID, the collection by the id in
// the run's record with its name and owner, tokens by their ids and properties, a nesting by the
// child's parent, a transfer by the owner), so a run after a failure makes no duplicates.
import type { RestClient } from '../client';
import { sameAddress } from '../address';
import type { MutationRequest } from '../types';
import { callOf, isExtrinsic, stepTitle, type PublishPlan, type PublishStep, type RunContext } from './plan';
import { rewriteProperties } from './images';
import type { RunRecord } from './record';
import { tokenPairs } from './token-map';

/** The target's reads and its file store (the REST client; a fake in tests). */
export type PublishTarget = Pick<RestClient, 'collection' | 'collections' | 'collectionAdmins' | 'tokenIds' | 'token' | 'upload'>;

export interface StepOutcome {
  parsed: unknown;
  /** The fee the step paid, as the service writes it (e.g. "0.1 OPL"). */
  fee?: string;
}

export interface RunDeps {
  target: PublishTarget;
  /** The bytes of a source file by its CID. */
  sourceFile(cid: string): Promise<Blob>;
  /** Whether the target's file store answers `fileUrl` (an upload of an earlier run). */
  targetHasFile(fileUrl: string): Promise<boolean>;
  /** Build → sign → Submit → status of one call on the target; `index` of `total` extrinsics of this run. */
  execute(call: MutationRequest, title: string, index: number, total: number): Promise<StepOutcome>;
  /** The record changed: keep it (a failure may come next). */
  save(record: RunRecord): void;
  onProgress?(progress: RunProgress): void;
  sourceGateway: string | null;
}

export interface RunProgress {
  /** Steps finished (done or found on the target) of `total`. */
  finished: number;
  total: number;
  current: string | null;
  state: 'checking' | 'running' | 'done';
}

export class PublishStepError extends Error {
  constructor(
    readonly step: PublishStep,
    readonly title: string,
    readonly cause: unknown
  ) {
    super(`${title}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'PublishStepError';
  }
}

const sameProperties = (a: readonly { key: string; value: string }[], b: readonly { key: string; value: string }[]) => {
  const byKey = new Map(b.map((p) => [p.key, p.value]));
  return a.every((p) => byKey.get(p.key) === p.value);
};

function context(record: RunRecord, deps: RunDeps): RunContext {
  return { collectionId: record.targetCollectionId, files: record.files, sourceGateway: deps.sourceGateway };
}

/** The target collection of the record, checked to be this publish's: it exists, with the source's name, owned by the signer. */
async function recordedCollection(plan: PublishPlan, record: RunRecord, target: PublishTarget): Promise<boolean> {
  if (record.targetCollectionId === null) {
    // A create that was sent but whose answer never came: adopt the signer's newest collection of the same name and prefix.
    if (record.inFlight !== 'create') return false;
    let found: { id: number } | undefined;
    try {
      found = (await target.collections({ owner: plan.signer, limit: 20 })).find((c) => c.name === plan.source.name && sameAddress(c.owner, plan.signer) && c.tokenPrefix === plan.source.tokenPrefix);
    } catch {
      return false;
    }
    if (!found) return false;
    record.targetCollectionId = found.id;
  }
  const collection = await target.collection(record.targetCollectionId);
  if (!collection) throw new Error(`Collection ${record.targetCollectionId} of the earlier run is not on the target: start a new run`);
  if (collection.name !== plan.source.name || !sameAddress(collection.owner, plan.signer)) {
    throw new Error(`Collection ${record.targetCollectionId} on the target is not this publish's (its name or owner differ): start a new run`);
  }
  return true;
}

/** Whether the target already has what `step` makes. */
export async function alreadyDone(step: PublishStep, plan: PublishPlan, record: RunRecord, deps: RunDeps): Promise<boolean> {
  const { target } = deps;
  if (step.kind === 'upload') {
    const file = record.files[step.cid];
    return !!file && (await deps.targetHasFile(file.fileUrl));
  }
  if (step.kind === 'create') return recordedCollection(plan, record, target);
  const collectionId = record.targetCollectionId;
  if (collectionId === null) return false;
  switch (step.kind) {
    case 'admin':
      return (await target.collectionAdmins(collectionId)).some((a) => sameAddress(a, step.admin));
    case 'mint': {
      const ids = new Set(await target.tokenIds(collectionId));
      const wanted = step.tokenIds.map((_, i) => step.firstTarget + i);
      const present = wanted.filter((id) => ids.has(id));
      if (present.length === 0) {
        if ([...ids].some((id) => id > wanted[wanted.length - 1])) throw new Error(`The target collection has tokens after ${wanted[wanted.length - 1]} but not ${wanted[0]}: it changed outside this run`);
        return false;
      }
      if (present.length < wanted.length) throw new Error(`The target has ${present.length} of the tokens ${wanted[0]}–${wanted[wanted.length - 1]}: it changed outside this run`);
      // The tokens are there: they must be these tokens.
      for (const [i, sourceId] of step.tokenIds.entries()) {
        const source = plan.source.tokens.find((t) => t.tokenId === sourceId)!;
        const token = await target.token(collectionId, wanted[i]);
        if (!sameProperties(rewriteProperties(source.properties, record.files, deps.sourceGateway), token.properties ?? [])) {
          throw new Error(`Token ${wanted[i]} on the target has other properties than source token ${sourceId}: the target collection changed outside this run`);
        }
      }
      return true;
    }
    case 'nest': {
      const token = await target.token(collectionId, plan.targetIds[step.child]);
      const parent = token.nestingParentToken;
      return !!parent && parent.collectionId === collectionId && parent.tokenId === plan.targetIds[step.parent];
    }
    case 'transfer':
      return sameAddress((await target.token(collectionId, plan.targetIds[step.tokenId])).owner, step.to);
    case 'limits': {
      const collection = await target.collection(collectionId);
      return collection?.limits?.transfersEnabled === false;
    }
  }
}

async function perform(step: PublishStep, plan: PublishPlan, record: RunRecord, deps: RunDeps, index: number, total: number): Promise<void> {
  if (step.kind === 'upload') {
    const blob = await deps.sourceFile(step.cid);
    const uploaded = await deps.target.upload(blob, step.cid);
    record.files[step.cid] = { cid: uploaded.cid, fileUrl: uploaded.fileUrl };
    return;
  }
  const call = callOf(step, plan, context(record, deps))!;
  record.inFlight = step.key;
  deps.save(record);
  const outcome = await deps.execute(call, stepTitle(step, plan), index, total);
  record.inFlight = null;
  if (outcome.fee) record.fees[step.key] = outcome.fee;
  if (step.kind === 'create') {
    const id = (outcome.parsed as { collectionId?: number } | null)?.collectionId;
    if (typeof id !== 'number') throw new Error('The target did not answer the new collection id');
    record.targetCollectionId = id;
  }
  if (step.kind === 'mint') {
    const minted = ((outcome.parsed as { tokenId: number }[] | null) ?? []).map((t) => t.tokenId);
    const wanted = step.tokenIds.map((_, i) => step.firstTarget + i);
    if (minted.join() !== wanted.join()) throw new Error(`The target minted tokens ${minted.join(', ')} where ${wanted.join(', ')} were expected`);
  }
}

/**
 * Runs (or resumes) `plan` into `record`. Throws PublishStepError at the first step that fails;
 * the record then holds everything done so far, and a later call resumes.
 */
export async function runPlan(plan: PublishPlan, record: RunRecord, deps: RunDeps): Promise<RunRecord> {
  const total = plan.steps.length;
  const extrinsics = plan.steps.filter(isExtrinsic);
  const report = (finished: number, current: string | null, state: RunProgress['state']) => deps.onProgress?.({ finished, total, current, state });
  record.failure = null;
  // Kept with the run: where each source token goes (ids shift when the source has gaps).
  record.tokenMap = tokenPairs(plan.targetIds);
  let signed = 0;
  // Extrinsics the target still needs: counted first, so "sign N" is honest.
  for (const [i, step] of plan.steps.entries()) {
    const title = stepTitle(step, plan);
    try {
      report(i, title, 'checking');
      if (await alreadyDone(step, plan, record, deps)) {
        if (!record.done.includes(step.key)) record.done.push(step.key);
        deps.save(record);
        continue;
      }
      report(i, title, 'running');
      if (isExtrinsic(step)) signed++;
      await perform(step, plan, record, deps, signed, extrinsics.length);
      if (!record.done.includes(step.key)) record.done.push(step.key);
      deps.save(record);
    } catch (error) {
      record.failure = { step: step.key, title, message: error instanceof Error ? error.message : String(error) };
      deps.save(record);
      throw new PublishStepError(step, title, error);
    }
  }
  record.finishedAt = Date.now();
  deps.save(record);
  report(total, null, 'done');
  return record;
}
