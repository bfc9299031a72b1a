// Keys for the UI: create and import (seed phrase, polkadot{.js} JSON), export to the same JSON,
// encryption at rest, lock and unlock. Framework-free; `wallet.svelte.ts` is the Svelte edge.
//
// UI flows:
// - create: `generateMnemonic()` → show it once → `confirmMnemonic(phrase, typedBack)` →
//   `vault.addFromMnemonic(phrase, name, password)`; drop the phrase from the component state.
// - import a phrase: `validateMnemonic(text)` → `vault.addFromMnemonic(text, name, password)`.
// - import a file: `vault.importJson(await file.text(), password)` (checks the password first).
// - export: `exportKeystore(await vault.exportJson(address))` saved as `keystoreFileName(json)`.
// - sign: `vault.unlock(address, password)` once, then `vault.sign(address, bytes)`; call
//   `vault.touch()` on user input so the auto-lock (5 minutes idle) counts activity.
export { WalletError, WalletLockedError } from './errors';
export {
  MAX_KEYSTORE_BYTES,
  MAX_NAME_LENGTH,
  MIN_PASSWORD_LENGTH,
  SS58_FORMAT,
  addressFromMnemonic,
  asKeyringJson,
  checkNewPassword,
  confirmMnemonic,
  createFromMnemonic,
  exportKeystore,
  generateMnemonic,
  keystoreFileName,
  normalizeName,
  parseKeystoreJson,
  reencrypt,
  renameKeystore,
  toKeystoreJson,
  unlockKeystore,
  validateMnemonic,
  type KeyType,
  type KeystoreJson,
  type KeystoreMeta
} from './keystore';
export {
  DEFAULT_AUTO_LOCK_MS,
  DEFAULT_DB_NAME,
  Vault,
  type AccountInfo,
  type AccountRow,
  type TimerHandle,
  type VaultOptions
} from './vault';
