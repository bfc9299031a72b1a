// Chain properties and nonces.
import { z } from 'zod';
import { SIGNED_EXTENSIONS } from '../../codec/payload';
import { read } from '../route';
import { address } from '../schemas';
import type { ForkOrigin } from '../../ledger/fork/source';

function forkJson(fork: ForkOrigin) {
  return { source: fork.source, blockHash: fork.blockHash, blockNumber: fork.blockNumber, sourceGenesisHash: fork.sourceGenesisHash };
}

export const commonRoutes = [
  read({
    path: '/common/chain-properties',
    aliases: ['/common/properties', '/chain/properties'],
    tag: 'common',
    summary: 'Chain properties: SS58 prefix, token symbol, decimals, genesis hash',
    query: z.object({}),
    handle: async (_q, { ledger }) => ({
      SS58Prefix: ledger.config.ss58Prefix,
      token: ledger.config.tokenSymbol,
      decimals: ledger.config.decimals,
      wsUrl: '',
      genesisHash: ledger.config.genesisHash,
      // What a signer needs to rebuild and check a payload of this chain (codec/signing-rule.ts).
      signedExtensions: [...SIGNED_EXTENSIONS],
      specVersion: ledger.config.specVersion,
      transactionVersion: ledger.config.transactionVersion,
      network: ledger.config.network,
      rules: ledger.config.rules,
      blockMode: ledger.blockMode,
      // A fork names its source: its signatures are of this chain (its own genesis hash), never the source's.
      ...(ledger.config.fork ? { fork: forkJson(ledger.config.fork) } : {})
    })
  }),
  read({
    path: '/common/nonce',
    tag: 'common',
    summary: 'Next nonce of an account (counting extrinsics waiting for a block)',
    query: z.object({ address }),
    handle: async ({ address }, { ledger }) => ({ nonce: await ledger.nextNonce(address) })
  })
];
