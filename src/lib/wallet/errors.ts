// Errors of the wallet. Every message is written for the person using the app: it says what is
// wrong and, where it helps, what to do. No message ever contains a password, a seed phrase or key
// material.

/** A wallet operation was refused: bad input, wrong password, unknown account, … */
export class WalletError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WalletError';
  }
}

/** Signing (or another use of the secret key) was asked of an account that is locked. */
export class WalletLockedError extends WalletError {
  readonly address: string;

  constructor(address: string) {
    super('This account is locked: unlock it with its password first');
    this.name = 'WalletLockedError';
    this.address = address;
  }
}
