// Signer payloads: building them for a call, rebuilding the signed bytes of a submitted one, and
// checking a submitted payload against the chain (genesis, versions, era).
import { decodeCall, encodeCall } from '../../codec/calls';
import { IMMORTAL_ERA, decodeEra, eraBirth, eraDeath, encodeMortalEra, type Era } from '../../codec/era';
import { publicKeyOf } from '../../codec/address';
import { encodeSignedExtrinsic, extrinsicHash, signedExtrinsicLength } from '../../codec/extrinsic';
import { fromHex } from '../../codec/hash';
import {
  PayloadError,
  SIGNED_EXTENSIONS,
  buildSignerPayloadJSON,
  encodeExtrinsicPayload,
  signerPayloadHex,
  signerPayloadRaw,
  tipOf,
  type SignerPayloadJSON
} from '../../codec/payload';
import { SigningRuleError, checkSignerPayload, payloadMessage, type SigningChain } from '../../codec/signing-rule';
import type { QueryTx } from '../store';
import type { Address, Call } from '../types';
import type { Head } from './block';
import type { ChainConfig } from './config';
import { TransactionError } from './errors';
import { inclusionFee, totalCost } from './fees';
import { RULE_SETS, type RuleSet } from '../rules';

export interface BuiltPayload {
  signerPayloadJSON: SignerPayloadJSON;
  signerPayloadRaw: { address: string; data: string; type: 'payload' };
  signerPayloadHex: string;
  /** Fee plus any deposit, smallest unit. */
  fee: bigint;
}

/** Nonces are u32 on the chain. */
export const MAX_NONCE = 0xffff_ffff;

/** The payload of `call` signed by `address` with `nonce`, checkpointed at `head`. */
export function buildPayload(
  config: ChainConfig,
  head: Head,
  address: Address,
  call: Call,
  nonce: number,
  { immortal = false, eraPeriod }: { immortal?: boolean; eraPeriod?: number } = {},
  rules: RuleSet = RULE_SETS.spec
): BuiltPayload {
  if (!Number.isSafeInteger(nonce) || nonce < 0 || nonce > MAX_NONCE) throw new TransactionError('BadPayload', `nonce must be a whole number from 0 to ${MAX_NONCE}, not ${nonce}`);
  const method = encodeCall(call);
  const era = immortal ? IMMORTAL_ERA : encodeMortalEra(eraPeriod || config.eraPeriod, head.number);
  const json = buildSignerPayloadJSON({
    address,
    method,
    nonce,
    era,
    blockHash: immortal ? config.genesisHash : head.hash,
    blockNumber: head.number,
    genesisHash: config.genesisHash,
    specVersion: config.specVersion,
    transactionVersion: config.transactionVersion
  });
  const payload = encodeExtrinsicPayload(json);
  return {
    signerPayloadJSON: json,
    signerPayloadRaw: signerPayloadRaw(json, payload),
    signerPayloadHex: signerPayloadHex(payload),
    fee: totalCost(call, signedExtrinsicLength(method.length, era.length, nonce, 0n), rules)
  };
}

/** Decode the call of a payload (BadPayload if it cannot be). */
export function decodePayloadCall(json: SignerPayloadJSON): Call {
  try {
    return decodeCall(fromHex(json.method));
  } catch (e) {
    throw new TransactionError('BadPayload', `signerPayloadJSON.method cannot be decoded: ${(e as Error).message}`);
  }
}

/** The signing rule's view of this chain: its genesis and exactly its extensions. */
export function signingChainOf(config: ChainConfig): SigningChain {
  return { genesisHash: config.genesisHash, signedExtensions: SIGNED_EXTENSIONS };
}

/** A refusal of the signing rule as the API reports it (400 BadPayload, nothing signed or admitted). */
function badPayload(e: unknown): never {
  if (e instanceof SigningRuleError) throw new TransactionError('BadPayload', e.message, { reason: e.reason });
  if (e instanceof PayloadError) throw new TransactionError('BadPayload', `signerPayloadJSON is not a valid payload: ${e.message}`);
  throw e;
}

/**
 * The exact bytes a signature of `json` must cover (the service rebuilds them; it never trusts a
 * client's hex): only for this chain's extensions, so nonce, era and genesis are always inside.
 */
export function signingMessage(config: ChainConfig, json: SignerPayloadJSON): Uint8Array {
  try {
    return payloadMessage(json, signingChainOf(config));
  } catch (e) {
    return badPayload(e);
  }
}

/** The call of `json` under the whole signing rule (what a dry run or a sign dialog shows). */
export function checkedCall(config: ChainConfig, json: SignerPayloadJSON): Call {
  try {
    return checkSignerPayload(json, signingChainOf(config)).call;
  } catch (e) {
    return badPayload(e);
  }
}

/** What a custodial key may sign for `json`: the whole signing rule (extensions, genesis, a call that decodes completely). */
export function messageToSign(config: ChainConfig, json: SignerPayloadJSON): Uint8Array {
  try {
    return checkSignerPayload(json, signingChainOf(config)).message;
  } catch (e) {
    return badPayload(e);
  }
}

export function payloadEra(json: SignerPayloadJSON): Era {
  try {
    return decodeEra(fromHex(json.era));
  } catch (e) {
    throw new TransactionError('BadPayload', `signerPayloadJSON.era is invalid: ${(e as Error).message}`);
  }
}

/** Genesis, versions and the era's checkpoint block, as Substrate checks them. Returns the last valid block. */
export async function checkPayloadAgainstChain(tx: QueryTx, config: ChainConfig, json: SignerPayloadJSON, era: Era, head: Head): Promise<number> {
  if (json.genesisHash.toLowerCase() !== config.genesisHash) {
    throw new TransactionError('Invalid', 'Invalid transaction: the genesis hash is not this chain’s (a payload built for another ledger)');
  }
  if (Number.parseInt(json.specVersion, 16) !== config.specVersion || Number.parseInt(json.transactionVersion, 16) !== config.transactionVersion) {
    throw new TransactionError('Invalid', 'Invalid transaction: spec or transaction version does not match the chain');
  }
  if (era.kind === 'immortal') {
    if (json.blockHash.toLowerCase() !== config.genesisHash) throw new TransactionError('Invalid', 'Invalid transaction: an immortal era must be checkpointed at the genesis hash');
    return Number.MAX_SAFE_INTEGER;
  }
  const current = head.number + 1;
  const birth = eraBirth(era, current);
  const checkpoint = await tx.get('blocks', birth);
  if (!checkpoint || checkpoint.hash !== json.blockHash.toLowerCase()) throw await eraMismatch(tx, json, era, birth);
  return eraDeath(era, current) - 1;
}

/**
 * Why a mortal payload's checkpoint is not the block its era begins at now: the payload names a
 * block of this chain whose era has ended (older than its period: build it again), or a block
 * this chain does not have. Substrate tells neither (the signature just fails to verify).
 */
async function eraMismatch(tx: QueryTx, json: SignerPayloadJSON, era: Era & { kind: 'mortal' }, birth: number): Promise<TransactionError> {
  const stated = Number.parseInt(json.blockNumber, 16);
  const statedBirth = Number.isSafeInteger(stated) && stated < birth ? await tx.get('blocks', eraBirth(era, stated)) : undefined;
  if (statedBirth && statedBirth.hash === json.blockHash.toLowerCase()) {
    const last = statedBirth.number + era.period - 1;
    return new TransactionError('Invalid', `Transaction is outdated: its mortal era began at block ${statedBirth.number} and ended with block ${last}; build it again`, { reason: 'AncientBirthBlock' });
  }
  return new TransactionError('Invalid', `Invalid transaction: blockHash does not match block ${birth}, where the era begins`);
}

/** The payload's tip, smallest units: paid with the fee (BadPayload when it is not a u128). */
export function payloadTip(json: SignerPayloadJSON): bigint {
  try {
    return tipOf(json);
  } catch (e) {
    return badPayload(e);
  }
}

/**
 * The identity of a signed payload: its extrinsic hash, over the signer's public key (so every
 * spelling of one signer gives one hash), its nonce and what it costs its signer at inclusion
 * (the inclusion fee and its tip).
 */
export function signedExtrinsicOf(json: SignerPayloadJSON, signature: string, signer: Address, call: Call, rules: RuleSet = RULE_SETS.spec): { hash: string; nonce: number; fee: bigint } {
  payloadEra(json);
  const nonce = Number.parseInt(json.nonce, 16);
  const method = fromHex(json.method);
  const era = fromHex(json.era);
  const tip = payloadTip(json);
  const hash = extrinsicHash(encodeSignedExtrinsic({ publicKey: publicKeyOf(signer), signature: fromHex(signature), era, nonce, tip, method }));
  // A tip is paid with the fee (the chain's ChargeTransactionPayment withdraws both).
  return { hash, nonce, fee: inclusionFee(call, signedExtrinsicLength(method.length, era.length, nonce, tip), rules) + tip };
}
