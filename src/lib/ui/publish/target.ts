// The publish page's links to the world: the target's REST client, the source's files, and the
// signing of each step on the TARGET through the app's sign dialog. Each payload goes through the
// signing rule against the target's own chain properties; the person approves the first
// extrinsic in the dialog (which checks the signer can pay the fee there); the rest of the run is
// signed with the same key while it stays unlocked (as a bulk mint's batches are), and a locked
// key asks again.
import { apiFetch } from '../../state/transport';
import { RestClient, normalizeBaseUrl } from '../../client/client';
import { errorText } from '../../client/errors';
import { amountText } from '../../client/format';
import { runExtrinsic } from '../../client/flow';
import type { RunDeps } from '../../client/publish/run';
import { saveRecord } from '../../client/publish/record';
import { session } from '../../state/session.svelte';
import { checkedForSigning, extrinsicSubject, signing } from '../../state/signing.svelte';
import { txlog } from '../../state/txlog.svelte';

/** How long the target has to answer the reachability check. */
export const TARGET_CHECK_MS = 8000;

/** A client of the target `url` (validated as an http(s) URL; throws a readable error otherwise). */
export function targetClient(url: string, timeoutMs?: number): RestClient {
  return new RestClient({ baseUrl: normalizeBaseUrl(url), fetch: apiFetch, timeoutMs });
}

/** `<origin>/ipfs` of a REST base URL: where its file store serves files by CID. */
export function gatewayOf(baseUrl: string): string {
  return `${new URL(baseUrl).origin}/ipfs`;
}

/** The bytes of a source file by its CID, from the source's gateway. */
export async function sourceFile(sourceBaseUrl: string, cid: string): Promise<Blob> {
  const response = await apiFetch(`${gatewayOf(sourceBaseUrl)}/${cid}`);
  if (!response.ok) throw new Error(`The file ${cid} is not in this network's file store (it answered ${response.status})`);
  return response.blob();
}

async function fileExists(url: string): Promise<boolean> {
  try {
    const response = await apiFetch(url);
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** Everything a run needs, signing with `signer` on `target`. */
export function runDeps(target: RestClient, sourceBaseUrl: string, signer: string, name: string): RunDeps {
  const vault = session.wallet.vault;
  let approved = false;
  return {
    target,
    sourceGateway: gatewayOf(sourceBaseUrl),
    sourceFile: (cid) => sourceFile(sourceBaseUrl, cid),
    targetHasFile: fileExists,
    save: (record) => saveRecord(localStorage, record),
    async execute(call, title, index, total) {
      const fullTitle = `Publish “${name}” (${index} of ${total}): ${title}`;
      try {
        const result = await runExtrinsic(
          target,
          call,
          async (built, decoded) => {
            // The target's own chain: the rule checks the payload against what that service says it is.
            const checked = await checkedForSigning(target, built);
            if (approved && vault.isUnlocked(signer)) return vault.sign(signer, checked.message);
            const signature = await signing.ask({ title: fullTitle, signer, client: target, subject: extrinsicSubject(built, decoded, checked) });
            approved = true;
            return signature;
          },
          {
            onProgress: (p) => signing.progress(p),
            onSubmitted: (hash, decoded) => txlog.add(target.baseUrl, hash, fullTitle, decoded)
          }
        );
        signing.close();
        return { parsed: result.status.parsed, fee: result.decoded.fee ? amountText(result.decoded.fee) : undefined };
      } catch (error) {
        if (signing.current) signing.fail(errorText(error));
        throw error;
      }
    }
  };
}
