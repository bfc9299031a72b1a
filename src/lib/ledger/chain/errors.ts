// Rejections before inclusion: the extrinsic never reaches a block, nothing is charged.

export type TransactionErrorKind =
  /** signerPayloadJSON cannot be re-encoded or its call decoded. */
  | 'BadPayload'
  /** The signature does not verify over the payload the service rebuilt. */
  | 'BadSignature'
  /** Valid signature, but the transaction cannot be included (nonce, era, genesis, fee). */
  | 'Invalid'
  /** Valid, but the pool has no room for it now (full, or its signer past its share): retry after `details.retryAfter` seconds. */
  | 'PoolBusy';

export class TransactionError extends Error {
  constructor(
    readonly kind: TransactionErrorKind,
    message: string,
    readonly details?: Record<string, unknown>
  ) {
    super(message);
    this.name = 'TransactionError';
  }
}
