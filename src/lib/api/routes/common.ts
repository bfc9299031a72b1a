// Chain properties and nonces.
import { z } from 'zod';
import { SIGNED_EXTENSIONS } from '../../codec/payload';
import { read } from '../route';
import { address } from '../schemas';

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
      blockMode: ledger.blockMode
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
