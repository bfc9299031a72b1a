// Start a throwaway Unique Network REST API (a local ledger), create a collection and mint a
// token in it with plain fetch, read both back, and stop. Signing is custodial: the dev account's
// seed travels in the Authorization header, which only a sandbox ledger should ever accept.
import { startHost } from 'opalite/node';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'; // //Alice, funded at genesis

const host = await startHost(); // a free port on 127.0.0.1, a temporary SQLite ledger
console.log(`Opalite REST API at ${host.url}`);

/** One REST call; `use=Result` builds, signs as //Alice, submits and waits for the block. */
async function call(method, path, body) {
  const write = body !== undefined;
  const response = await fetch(`${host.url}${path}${write ? '?use=Result' : ''}`, {
    method,
    headers: write ? { 'content-type': 'application/json', authorization: 'Seed //Alice' } : {},
    body: write ? JSON.stringify(body) : undefined
  });
  const answer = await response.json();
  if (!response.ok || answer.isError) throw new Error(`${method} ${path} failed (${response.status}): ${JSON.stringify(answer.error ?? answer)}`);
  return answer;
}

try {
  const created = await call('POST', '/collections', { address: ALICE, name: 'Example', description: 'Made by examples/node-script', tokenPrefix: 'EX' });
  const { collectionId } = created.parsed;
  console.log(`Created collection ${collectionId} (extrinsic ${created.hash})`);

  const minted = await call('POST', '/tokens', { address: ALICE, collectionId, data: { name: { _: 'First token' } } });
  const { tokenId } = minted.parsed;
  console.log(`Minted token ${collectionId}/${tokenId} (extrinsic ${minted.hash})`);

  const collection = await call('GET', `/collections?collectionId=${collectionId}`);
  const token = await call('GET', `/tokens?collectionId=${collectionId}&tokenId=${tokenId}`);
  console.log(`Collection ${collection.id}: "${collection.name}" (${collection.tokenPrefix}), owner ${collection.owner}`);
  console.log(`Token ${token.collectionId}/${token.tokenId}: "${token.name._}", owner ${token.owner}`);
} finally {
  await host.stop(); // deletes the temporary ledger
  console.log('Stopped');
}
