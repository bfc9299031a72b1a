// `/extrinsic/*`: submit a signed payload, status, generic build and fee, signature check,
// custodial sign, decode (for sign dialogs) and the log of recent extrinsics.
import { z } from 'zod';
import { callFromJson, chainArgsOf, encodeCall } from '../../codec/calls';
import type { SignerPayloadJSON } from '../../codec/payload';
import { verifySignature } from '../../codec/signature';
import type { Call } from '../../ledger/types';
import { checkImpersonatedSigner, impersonatedAddress, impersonationSigned, requireSigner, signerFromAuthorization } from '../auth';
import { IMPERSONATION_SIGNATURE } from '../../ledger/chain/ledger';
import { ApiError, fromZodError, validationError } from '../errors';
import { feeResponse } from '../fee';
import { jsonSafe, jsonSafeResponse } from '../json';
import { signCustodially, signedBody, signerPayloadJSONSchema, unsignedBody } from '../mutation';
import { plain } from '../route';
import { address, boundedString, hash32 } from '../schemas';
import { MAX_NONCE } from '../../ledger/chain/payload-builder';
import { MAX_ERA_PERIOD } from '../../codec/era';
import { NO_STATE } from '../no-state';
import { parsedReadsState } from '../parsed';
import { eventJson, statusJson } from '../status';
import { blockNamed } from './lookups';

const hashQuery = z.object({ hash: hash32('hash') });

/** The real service's `GET /extrinsic` (the SDK's `extrinsic.get`): a block by hash or number, and an extrinsic of it. */
const extrinsicInBlockQuery = z.object({
  blockHashOrNumber: z.union([hash32('blockHashOrNumber'), z.string().regex(/^\d{1,10}$/).transform(Number).pipe(z.number().max(4_294_967_295))], {
    error: 'blockHashOrNumber must be a block number or 0x + 64 hex digits'
  }),
  extrinsicHash: hash32('extrinsicHash')
});

/** More than any call takes (transferFrom has 5), so that a wrong count is answered by the codec, naming the call's arguments. */
const MAX_POSITIONAL_ARGS = 16;

const genericCall = z.object({
  address,
  section: boundedString('section'),
  method: boundedString('method'),
  /** Arguments by name (see the call list in the docs), or the chain's arguments in order in polkadot.js JSON, as the real service takes them. */
  args: z.union([z.array(z.unknown()).max(MAX_POSITIONAL_ARGS), z.record(boundedString('argument name'), z.unknown())]).default({}),
  isImmortal: z.boolean().optional(),
  /** The real service's `period: era || mortalLength`: a mortal era's length in blocks (0 or absent: the default). */
  era: z
    .number({ error: 'era must be a number of blocks' })
    .int({ error: 'era must be a whole number of blocks' })
    .min(0, { error: 'era must be 0 or more' })
    .max(MAX_ERA_PERIOD, { error: `era must be at most ${MAX_ERA_PERIOD} blocks` })
    .optional(),
  nonce: z.number().int().nonnegative().max(MAX_NONCE).optional()
});

/** A call from section/method/args (amounts as JSON numbers or decimal strings, at any depth), checked by encoding it. */
function callFrom(section: string, method: string, args: unknown): Call {
  try {
    const call = callFromJson(`${section}.${method}`, args);
    encodeCall(call);
    return call;
  } catch (e) {
    throw new ApiError('ValidationError', `Cannot build ${section}.${method}: ${(e as Error).message}`);
  }
}

export const extrinsicRoutes = [
  plain({
    method: 'POST',
    path: '/extrinsic/submit',
    tag: 'extrinsic',
    summary: 'Submit a signed payload; answers its hash (in instant mode once it is in a block)',
    body: signedBody,
    handle: async ({ body }, ctx) => {
      const { ledger } = ctx;
      const { signerPayloadJSON, signature } = body as z.output<typeof signedBody>;
      const json = signerPayloadJSON as SignerPayloadJSON;
      // A payload "signed" by impersonation (use=Sign) is taken with the same Impersonate header, where allowed.
      const impersonated = impersonatedAddress(ctx);
      if (impersonated) checkImpersonatedSigner(impersonated, json.address);
      const submitted = impersonated && signature.toLowerCase() === IMPERSONATION_SIGNATURE ? await ledger.submitImpersonated(json) : await ledger.submit(json, signature);
      if (ledger.blockMode.kind === 'instant') await submitted.included;
      return { status: 201, json: { hash: submitted.hash } };
    }
  }),
  plain({
    method: 'GET',
    path: '/extrinsic',
    tag: 'extrinsic',
    summary: 'An extrinsic of a block (the SDK\'s extrinsic.get): {section, method, events, args (the chain\'s arguments, in order), nonce, signer}',
    query: extrinsicInBlockQuery,
    handle: async ({ query }, { ledger }) => {
      const { blockHashOrNumber, extrinsicHash } = query as z.output<typeof extrinsicInBlockQuery>;
      const hash = extrinsicHash.toLowerCase();
      const found = await ledger.read(async (tx) => {
        const block = await blockNamed(tx, blockHashOrNumber);
        return { block, record: block?.extrinsics.includes(hash) ? await tx.get('extrinsics', hash) : undefined };
      });
      if (!found.block) throw new ApiError('BlockNotFoundError', `No block ${blockHashOrNumber} in this ledger`);
      if (!found.record) throw new ApiError('NotFoundError', `No extrinsic with hash ${extrinsicHash} in block ${found.block.number}`);
      const { call, events, nonce, signer } = found.record;
      const [section, method] = call.name.split('.');
      return { status: 200, json: jsonSafe({ section, method, events: events.map(eventJson), args: chainArgsOf(call), nonce, signer }) };
    }
  }),
  plain({
    method: 'GET',
    path: '/extrinsic/status',
    tag: 'extrinsic',
    summary: 'Status of a submitted extrinsic: status, events, error, parsed result, fee',
    query: hashQuery,
    handle: async ({ query }, { ledger }) => {
      const { hash } = query as z.output<typeof hashQuery>;
      const key = hash.toLowerCase();
      // Just included (or waiting), with nothing in its answer to read: from memory, no read transaction.
      const kept = ledger.keptStatus(key);
      const json = kept && !parsedReadsState(kept.record)
        ? await statusJson(kept.record, ledger, NO_STATE, kept.block)
        : await ledger.read(async (tx) => {
            // statusJson reads the record's block and answers Invalid / Reverted if it is no longer the ledger's.
            const record = await ledger.recordOf(key, tx);
            return record ? statusJson(record, ledger, tx) : null;
          });
      if (!json) throw new ApiError('NotFoundError', `No extrinsic with hash ${hash} found`);
      return jsonSafeResponse(json);
    }
  }),
  plain({
    method: 'POST',
    path: '/extrinsic/build',
    tag: 'extrinsic',
    summary: 'Build a payload for any call by section, method and arguments (named, or positional as polkadot.js takes them)',
    body: genericCall,
    handle: async ({ body }, { ledger }) => {
      const b = body as z.output<typeof genericCall>;
      const built = await ledger.build(b.address, callFrom(b.section, b.method, b.args), { nonce: b.nonce, immortal: b.isImmortal, eraPeriod: b.era });
      const { signerPayloadJSON, signerPayloadRaw, signerPayloadHex } = built;
      return { json: { signerPayloadJSON, signerPayloadRaw, signerPayloadHex, fee: feeResponse(built.fee, ledger.config.tokenSymbol, ledger.config.decimals) } };
    }
  }),
  plain({
    method: 'POST',
    path: '/extrinsic/calculate-fee',
    tag: 'extrinsic',
    summary: 'Fee of a call (raw section/method/args) or of a payload',
    handle: async ({ body }, ctx) => {
      const { ledger } = ctx;
      const payload = unsignedBody.safeParse(body);
      let cost: bigint;
      if (payload.success) {
        const json = payload.data.signerPayloadJSON as SignerPayloadJSON;
        // A signed body: its signature must be one, and verify, as a submit's would (the real service's buildSignedSubmittable).
        if (body !== null && typeof body === 'object' && 'signature' in body) {
          const signed = signedBody.safeParse(body);
          if (!signed.success) throw fromZodError(signed.error, 'body');
          if (!impersonationSigned(ctx, signed.data.signature, json.address)) await ledger.checkSigned(json, signed.data.signature);
        }
        cost = ledger.estimatePayloadCost(json);
      } else {
        const raw = genericCall.safeParse(body);
        if (!raw.success) throw validationError('Body must be {address, section, method, args} or {signerPayloadJSON}');
        const call = callFrom(raw.data.section, raw.data.method, raw.data.args);
        cost = ledger.estimateCost(call, await ledger.nextNonce(raw.data.address));
      }
      return { json: feeResponse(cost, ledger.config.tokenSymbol, ledger.config.decimals) };
    }
  }),
  plain({
    method: 'POST',
    path: '/extrinsic/verify-sign',
    tag: 'extrinsic',
    summary: 'Check a signature against the payload the service rebuilds',
    body: signedBody,
    handle: async ({ body }, { ledger }) => {
      const { signerPayloadJSON, signature } = body as z.output<typeof signedBody>;
      try {
        const message = ledger.signingMessage(signerPayloadJSON as SignerPayloadJSON);
        const isValid = verifySignature(message, signature, signerPayloadJSON.address);
        return { json: { isValid, errorMessage: isValid ? null : 'Signature does not verify' } };
      } catch (e) {
        return { json: { isValid: false, errorMessage: String(e instanceof Error ? e.message : e) } };
      }
    }
  }),
  plain({
    method: 'POST',
    path: '/extrinsic/sign',
    tag: 'extrinsic',
    summary: 'Sign a payload custodially (Authorization: Seed …)',
    body: unsignedBody,
    handle: async ({ body }, { ledger, request }) => {
      const pair = requireSigner(signerFromAuthorization(request.headers.get('authorization')));
      const json = (body as z.output<typeof unsignedBody>).signerPayloadJSON as SignerPayloadJSON;
      return { json: { signature: signCustodially(ledger, pair, json), signatureType: pair.type } };
    }
  }),
  plain({
    method: 'POST',
    path: '/extrinsic/decode',
    tag: 'extrinsic',
    summary: 'Decode the call of a payload, with its signer, nonce and fee (for sign dialogs)',
    body: z.object({ signerPayloadJSON: signerPayloadJSONSchema }),
    handle: async ({ body }, { ledger }) => {
      const json = (body as { signerPayloadJSON: SignerPayloadJSON }).signerPayloadJSON;
      const call = ledger.decodePayloadCall(json);
      const [section, method] = call.name.split('.');
      const nonce = Number.parseInt(json.nonce, 16);
      const fee = ledger.estimatePayloadCost(json, call);
      return { json: jsonSafe({ section, method, args: call.args, signer: json.address, nonce, fee: feeResponse(fee, ledger.config.tokenSymbol, ledger.config.decimals) }) };
    }
  }),
  plain({
    method: 'GET',
    path: '/extrinsic/list',
    tag: 'extrinsic',
    summary: 'Recent extrinsics, newest first, optionally of one signer',
    query: z.object({ address: address.optional(), limit: z.coerce.number().int().positive().max(500).default(50) }),
    handle: async ({ query }, { ledger }) => {
      const { address: signer, limit } = query as { address?: string; limit: number };
      const list = await ledger.read(async (tx) => Promise.all((await tx.recentExtrinsics(limit, signer)).map((r) => statusJson(r, ledger, tx))));
      return { status: 200, json: jsonSafe({ extrinsics: list }) };
    }
  })
];
