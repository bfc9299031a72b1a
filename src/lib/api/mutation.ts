// One URL, many `use` modes (reference section 2): Build, Sign, Submit, SubmitWatch, Result,
// GetFee, BuildBatch/BuildSequence, over three body forms (raw arguments, unsigned payload,
// signed payload).
import type { KeyringPair } from '@polkadot/keyring/types';
import { u8aEq } from '@polkadot/util';
import { z } from 'zod';
import { publicKeyOf } from '../codec/address';
import { signMessage } from '../codec/signature';
import type { BuiltPayload, Ledger, Submitted } from '../ledger/chain/ledger';
import { MAX_NONCE } from '../ledger/chain/payload-builder';
import { TransactionError } from '../ledger/chain/errors';
import type { SignerPayloadJSON } from '../codec/payload';
import type { Call, ExtrinsicRecord } from '../ledger/types';
import { checkImpersonatedSigner, impersonatedAddress, impersonationSigned, requireSigner, signerFromAuthorization } from './auth';
import { IMPERSONATION_SIGNATURE } from '../ledger/chain/ledger';
import { ApiError, fromTransactionError, fromZodError, validationError } from './errors';
import { NO_STATE } from './no-state';
import { feeResponse } from './fee';
import { MAX_ACCOUNT_FIELD_LENGTH, MAX_SIGNED_EXTENSIONS, MAX_URL_FIELD_LENGTH } from '../limits';
import { parsedResult } from './parsed';
import { dispatchErrorJson } from './status';
import { boundedArray, boundedString, callHex, hashHex, numberHex, signatureHex, wholeNumber } from './schemas';
import { flag } from './query';
import type { ApiContext, MutationRoute } from './route';

export const USE_MODES = ['Build', 'BuildBatch', 'BuildSequence', 'Sign', 'Submit', 'SubmitWatch', 'Result', 'GetFee'] as const;
export type UseMode = (typeof USE_MODES)[number];

/** The signer payload as the SDK sends it, every field bounded by what it can hold. */
export const signerPayloadJSONSchema = z.looseObject({
  address: boundedString('address', MAX_ACCOUNT_FIELD_LENGTH),
  blockHash: hashHex('blockHash'),
  blockNumber: numberHex('blockNumber'),
  era: numberHex('era'),
  genesisHash: hashHex('genesisHash'),
  method: callHex('method'),
  nonce: numberHex('nonce'),
  signedExtensions: boundedArray('signedExtensions', boundedString('signedExtension'), MAX_SIGNED_EXTENSIONS),
  specVersion: numberHex('specVersion'),
  tip: numberHex('tip'),
  transactionVersion: numberHex('transactionVersion'),
  version: z.number()
});

export const mutationQuery = z.object({
  use: z.enum(USE_MODES, { error: `use must be one of ${USE_MODES.join(', ')}` }).optional(),
  withFee: z.unknown().optional(),
  verify: z.unknown().optional(),
  nonce: wholeNumber('nonce', MAX_NONCE).optional(),
  callbackUrl: boundedString('callbackUrl', MAX_URL_FIELD_LENGTH).optional()
});

export const unsignedBody = z.object({ signerPayloadJSON: signerPayloadJSONSchema, signerPayloadHex: callHex('signerPayloadHex').optional(), signerPayloadRaw: z.unknown().optional() });
export const signedBody = z.object({ signerPayloadJSON: signerPayloadJSONSchema, signature: signatureHex });

type Body =
  | { form: 'raw'; call: Call; signer: string }
  | { form: 'unsigned'; json: SignerPayloadJSON }
  | { form: 'signed'; json: SignerPayloadJSON; signature: string };

function payloadOf(value: unknown, schema: z.ZodType): SignerPayloadJSON {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZodError(parsed.error, 'body');
  return (parsed.data as { signerPayloadJSON: SignerPayloadJSON }).signerPayloadJSON;
}

/** Validate and classify the body; raw arguments become a chain call (existence checked). */
async function classify(route: MutationRoute, body: unknown, ctx: ApiContext): Promise<Body> {
  if (body && typeof body === 'object' && 'signerPayloadJSON' in body) {
    if ('signature' in body) {
      const parsed = signedBody.safeParse(body);
      if (!parsed.success) throw fromZodError(parsed.error, 'body');
      return { form: 'signed', json: parsed.data.signerPayloadJSON as SignerPayloadJSON, signature: parsed.data.signature };
    }
    return { form: 'unsigned', json: payloadOf(body, unsignedBody) };
  }
  return { form: 'raw', ...(await rawCall(route, body, ctx)) };
}

async function rawCall(route: MutationRoute, body: unknown, ctx: ApiContext): Promise<{ call: Call; signer: string }> {
  const parsed = route.body.safeParse(body);
  if (!parsed.success) throw fromZodError(parsed.error, 'body');
  const args = parsed.data;
  // A read transaction costs more than building a plain call (on SQLite, a snapshot after every block).
  const call = route.readsNoState ? await route.toCall(args, { ...ctx, tx: NO_STATE }) : await ctx.ledger.read((tx) => route.toCall(args, { ...ctx, tx }));
  return { call, signer: route.signer(args) };
}

function withTransactionErrors<T>(fn: () => Promise<T>): Promise<T> {
  return fn().catch((e) => {
    throw e instanceof TransactionError ? fromTransactionError(e) : e;
  });
}

export interface MutationResult {
  status: number;
  json: unknown;
}

export async function handleMutation(route: MutationRoute, rawQuery: unknown, body: unknown, ctx: ApiContext): Promise<MutationResult> {
  const q = mutationQuery.safeParse(rawQuery);
  if (!q.success) throw fromZodError(q.error, 'query');
  const use: UseMode = q.data.use ?? 'Build';
  const withFee = flag(q.data.withFee);
  const { ledger } = ctx;
  const seedSigner = signerFromAuthorization(ctx.request.headers.get('authorization'));
  const impersonated = impersonatedAddress(ctx);
  const fee = (raw: bigint) => feeResponse(raw, ledger.config.tokenSymbol, ledger.config.decimals);

  if (use === 'BuildBatch' || use === 'BuildSequence') return { status: 201, json: await buildSequence(route, body, q.data.nonce, ctx) };

  const input = await classify(route, body, ctx);
  if (input.form === 'raw' && flag(q.data.verify)) await verifyCall(ledger, input.signer, input.call);

  /** The payload JSON and, for raw arguments, what the build said about it. */
  const payload = async (): Promise<{ json: SignerPayloadJSON; built?: BuiltPayload }> => {
    if (input.form !== 'raw') return { json: input.json };
    const built = await ledger.build(input.signer, input.call, { nonce: q.data.nonce });
    return { json: built.signerPayloadJSON, built };
  };
  const costOf = async (json: SignerPayloadJSON) => {
    return ledger.estimatePayloadCost(json, input.form === 'raw' ? input.call : undefined);
  };
  const feeField = async (json: SignerPayloadJSON) => (withFee && input.form === 'raw' ? { fee: fee(await costOf(json)) } : {});

  return withTransactionErrors(async () => {
    switch (use) {
      case 'Build': {
        if (input.form !== 'raw') return { status: 201, json: { signerPayloadJSON: input.json } };
        const { built } = await payload();
        const { signerPayloadJSON, signerPayloadRaw, signerPayloadHex } = built!;
        return { status: 201, json: { signerPayloadJSON, signerPayloadRaw, signerPayloadHex, ...(withFee ? { fee: fee(built!.fee) } : {}) } };
      }
      case 'GetFee': {
        // A signed body is verified as a submit would be (the real service's buildSignedSubmittable).
        if (input.form === 'signed' && !impersonationSigned(ctx, input.signature, input.json.address)) await ledger.checkSigned(input.json, input.signature);
        const { json } = await payload();
        return { status: 201, json: { fee: fee(await costOf(json)) } };
      }
      case 'Sign': {
        const pair = impersonated ? null : requireSigner(seedSigner);
        const { json } = await payload();
        if (impersonated) checkImpersonatedSigner(impersonated, json.address);
        // Impersonated: a signature no key makes, which /extrinsic/submit takes with the same header.
        const signature = pair ? signCustodially(ledger, pair, json) : IMPERSONATION_SIGNATURE;
        return { status: 201, json: { signerPayloadJSON: json, signature, ...(await feeField(json)) } };
      }
      case 'Submit':
      case 'SubmitWatch':
      case 'Result': {
        const options = { nonce: q.data.nonce, callbackUrl: q.data.callbackUrl };
        const { json, submitted } = impersonated ? await submitImpersonated(input, ledger, impersonated, options) : await submitInput(input, ledger, seedSigner, options);
        const feePart = await feeField(json);
        if (use === 'Result' || ledger.blockMode.kind === 'instant') {
          const record = await submitted.included;
          if (use === 'Result') return { status: 201, json: await resultJson(record, ledger, feePart) };
        }
        return { status: 201, json: { hash: submitted.hash, ...feePart } };
      }
    }
  });
}

/**
 * Submit any body form. Raw arguments are built, signed and admitted in the signer's serial
 * section (Ledger.signAndSubmit), so concurrent custodial submissions of one account take
 * consecutive nonces instead of colliding.
 */
async function submitInput(
  input: Body,
  ledger: Ledger,
  seedSigner: KeyringPair | null,
  options: { nonce?: number; callbackUrl?: string }
): Promise<{ json: SignerPayloadJSON; submitted: Submitted }> {
  if (input.form === 'raw') {
    const pair = requireSigner(seedSigner);
    const key = { publicKey: pair.publicKey, sign: (message: Uint8Array) => signMessage(pair, message) };
    const submitted = await ledger.signAndSubmit(input.signer, input.call, key, options);
    return { json: submitted.signerPayloadJSON, submitted };
  }
  const signature = input.form === 'signed' ? input.signature : signCustodially(ledger, requireSigner(seedSigner), input.json);
  return { json: input.json, submitted: await ledger.submit(input.json, signature, { callbackUrl: options.callbackUrl }) };
}

/** Submit as `impersonated` without its key (the host allowed it): raw arguments are built here, a payload is taken as it is. */
async function submitImpersonated(
  input: Body,
  ledger: Ledger,
  impersonated: string,
  options: { nonce?: number; callbackUrl?: string }
): Promise<{ json: SignerPayloadJSON; submitted: Submitted }> {
  if (input.form === 'raw') {
    checkImpersonatedSigner(impersonated, input.signer);
    const submitted = await ledger.impersonateAndSubmit(input.signer, input.call, options);
    return { json: submitted.signerPayloadJSON, submitted };
  }
  checkImpersonatedSigner(impersonated, input.json.address);
  return { json: input.json, submitted: await ledger.submitImpersonated(input.json, { callbackUrl: options.callbackUrl }) };
}

/** A custodial signature of `json`, only when the seed is the key of the payload's signer (an account is its public key). */
export function signCustodially(ledger: Ledger, pair: KeyringPair, json: SignerPayloadJSON): string {
  let key: Uint8Array | null = null;
  try {
    key = publicKeyOf(json.address);
  } catch {
    // An Ethereum address or none: no seed is its key.
  }
  if (!key || !u8aEq(key, pair.publicKey)) {
    throw new TransactionError('BadSignature', `The seed is not the key of the payload's signer ${String(json.address).slice(0, 64)}: nothing is signed`);
  }
  return signMessage(pair, ledger.messageToSign(json));
}

async function resultJson(record: ExtrinsicRecord, ledger: Ledger, feePart: object) {
  const parsed = await ledger.read((tx) => parsedResult(record, tx, ledger.rules));
  return {
    hash: record.hash,
    isCompleted: record.isCompleted,
    isError: record.isError,
    parsed: parsed ?? null,
    error: dispatchErrorJson(record.error),
    ...feePart
  };
}

/** verify=true: dry-run the whole call now and report the chain error it would hit. */
async function verifyCall(ledger: Ledger, signer: string, call: Call): Promise<void> {
  const failure = await ledger.dryRun(signer, call);
  if (failure) {
    throw new ApiError('VerificationFailedError', `Verification failed: ${failure.message}`, { section: failure.section, name: failure.name });
  }
  const nonce = await ledger.nextNonce(signer);
  const cost = ledger.estimateCost(call, nonce);
  const balance = await ledger.read(async (tx) => (await tx.get('accounts', signer))?.free ?? 0n);
  if (balance < cost) {
    throw new ApiError('VerificationFailedError', 'Not enough money to pay fee', { fee: cost.toString(), currentBalance: balance.toString() });
  }
}

async function buildSequence(route: MutationRoute, body: unknown, startNonce: number | undefined, ctx: ApiContext) {
  if (!Array.isArray(body) || body.length === 0) throw validationError('BuildBatch/BuildSequence takes a non-empty JSON array of arguments');
  const calls = [];
  for (const item of body) calls.push(await rawCall(route, item, ctx));
  const signer = calls[0].signer;
  if (calls.some((c) => c.signer !== signer)) throw validationError('Same address required for every item of a batch build');
  let nonce = startNonce ?? (await ctx.ledger.nextNonce(signer));
  const payloads = [];
  for (const { call } of calls) {
    const built = await ctx.ledger.build(signer, call, { nonce: nonce++ });
    payloads.push({ signerPayloadJSON: built.signerPayloadJSON, signerPayloadRaw: built.signerPayloadRaw, signerPayloadHex: built.signerPayloadHex });
  }
  return { payloads, nextNonce: nonce };
}
