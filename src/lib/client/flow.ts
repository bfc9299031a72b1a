// Build → sign → Submit → status, for any mutation route. The signer is a callback, so the same
// flow serves the sign dialog (a person approves with the unlocked key) and the one-click dev
// funding (the public //Alice key). The seed never leaves the page: only the signature is sent.
import type { RestClient } from './client';
import { ApiError, ExtrinsicFailedError, StatusTimeoutError } from './errors';
import type { BuildResult, DecodedCall, ExtrinsicStatus, MutationRequest } from './types';

export type FlowStep = 'build' | 'sign' | 'submit' | 'status';

export interface FlowProgress {
  step: FlowStep;
  hash?: string;
  status?: ExtrinsicStatus;
}

/** Answers the MultiSignature hex (0x01 + 64 bytes for sr25519) of `built.signerPayloadHex`. */
export type PayloadSigner = (built: BuildResult, decoded: DecodedCall) => Promise<string>;

export interface FlowOptions {
  onProgress?: (progress: FlowProgress) => void;
  /** Called once the payload is signed and before it is sent (for a local log). */
  onSubmitted?: (hash: string, decoded: DecodedCall, built: BuildResult) => void;
  signal?: AbortSignal;
  /** How long to wait for a final status after submission (default 3 minutes). */
  statusTimeoutMs?: number;
  /** First pause between status polls (default 400 ms; it grows to 3 s). */
  pollMs?: number;
  /** Submit as this signer without its key (`Authorization: Impersonate`, a sandbox's dev tool). */
  impersonate?: string;
}

export interface FlowResult {
  hash: string;
  status: ExtrinsicStatus;
  decoded: DecodedCall;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
      },
      { once: true }
    );
  });
}

/**
 * Polls `/extrinsic/status` until the extrinsic is completed (in a block, finalized or failed).
 * A 404 right after submission is retried: a real service may not know the hash at once.
 */
export async function waitForStatus(
  client: RestClient,
  hash: string,
  options: Pick<FlowOptions, 'signal' | 'statusTimeoutMs' | 'pollMs'> & { onStatus?: (s: ExtrinsicStatus) => void } = {}
): Promise<ExtrinsicStatus> {
  const timeoutMs = options.statusTimeoutMs ?? 180_000;
  const deadline = Date.now() + timeoutMs;
  let pause = options.pollMs ?? 400;
  for (;;) {
    try {
      const status = await client.extrinsicStatus(hash, options.signal);
      options.onStatus?.(status);
      if (status.isCompleted || status.isError) return status;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
    if (Date.now() + pause > deadline) throw new StatusTimeoutError(hash, Math.round(timeoutMs / 1000));
    await sleep(pause, options.signal);
    pause = Math.min(pause * 1.5, 3000);
  }
}

/**
 * Runs one mutation to its end. Throws ApiError (build or submit refused), the signer's error
 * (cancelled, wrong password), ExtrinsicFailedError (included, but the chain refused the call)
 * or StatusTimeoutError.
 */
export async function runExtrinsic(client: RestClient, call: MutationRequest, sign: PayloadSigner, options: FlowOptions = {}): Promise<FlowResult> {
  const progress = options.onProgress ?? (() => {});
  progress({ step: 'build' });
  const built = await client.build(call);
  const decoded = await client.decode(built.signerPayloadJSON);
  if (!decoded.fee && built.fee) decoded.fee = built.fee;

  progress({ step: 'sign' });
  const signature = await sign(built, decoded);

  progress({ step: 'submit' });
  const { hash } = await client.submit(built.signerPayloadJSON, signature, { impersonate: options.impersonate });
  options.onSubmitted?.(hash, decoded, built);

  progress({ step: 'status', hash });
  const status = await waitForStatus(client, hash, { ...options, onStatus: (s) => progress({ step: 'status', hash, status: s }) });
  if (status.isError) throw new ExtrinsicFailedError(status);
  return { hash, status, decoded };
}
