// `npm run serve`: the REST API at http://127.0.0.1:$PORT/sandbox/v1 on a fresh ledger, or on one
// kept in a data file (`--data ledger.json` or OPALITE_DATA). Stops cleanly on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import type { BlockMode } from '../src/lib/ledger/chain/config';
import { isRuleSetName } from '../src/lib/ledger/rules';
import { startHost } from './host';

function blockModeOf(text: string | undefined): BlockMode {
  if (!text || text === 'instant') return { kind: 'instant' };
  if (text === 'manual') return { kind: 'manual' };
  const interval = /^interval:(\d+)$/.exec(text);
  if (interval) return { kind: 'interval', ms: Number(interval[1]) };
  throw new Error(`--blocks must be instant, manual or interval:<ms>, not "${text}"`);
}

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    data: { type: 'string' },
    rules: { type: 'string' },
    blocks: { type: 'string' }
  }
});

const port = Number(values.port ?? process.env.PORT ?? 3000);
const rules = values.rules ?? process.env.OPALITE_RULES ?? 'spec';
if (!isRuleSetName(rules)) {
  console.error(`--rules must be "spec" or "unique", not "${rules}"`);
  process.exit(2);
}

const host = await startHost({
  port,
  dataFile: values.data ?? process.env.OPALITE_DATA,
  rules,
  blockMode: blockModeOf(values.blocks ?? process.env.OPALITE_BLOCKS)
});
console.log(`Opalite REST API (${host.ledger.config.rules} rules, ${host.ledger.blockMode.kind} blocks) at ${host.url}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    host.stop().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      }
    );
  });
}
