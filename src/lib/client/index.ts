// The UI's REST client: typed reads, the Build → sign → Submit flow with status polling, and
// errors in words. Works against any base_url; knows nothing about Svelte or keys.
export { RestClient, normalizeBaseUrl, DEFAULT_TIMEOUT_MS, type ClientOptions, type FetchLike, type QueryValue, type RequestOptions } from './client';
export { ApiError, ExtrinsicFailedError, NetworkError, SignatureCancelledError, StatusTimeoutError, errorText } from './errors';
export { runExtrinsic, waitForStatus, type FlowOptions, type FlowProgress, type FlowResult, type FlowStep, type PayloadSigner } from './flow';
export * from './format';
export * from './types';
export { sameAddress } from './address';
