// A fork origin for tests: a source that handed out `created` collections, at a made-up block.
import type { ForkOrigin } from './source';

export function testOrigin(created: number, source = 'http://source.test/sandbox/v1'): ForkOrigin {
  return {
    source,
    blockHash: '0x' + '11'.repeat(32),
    blockNumber: 7,
    sourceGenesisHash: '0x' + '22'.repeat(32),
    collections: { created, destroyed: 0 },
    unpinned: []
  };
}
