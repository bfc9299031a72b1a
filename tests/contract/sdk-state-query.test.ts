// The real @unique-nft/sdk 0.7.7 client's stateQuery.get / execute against the Node host: the
// storage items and constants the other methods read, in the real service's serialized form. The
// scenarios and expectations are shared with tests/e2e/sdk-v2-browser.test.ts.
import { byGroup } from '../support/sdk-state-query-expectations';
import { runScenario } from '../support/sdk-state-query-scenarios';
import { runOnNodeHost } from './shared-scenarios';

runOnNodeHost(byGroup(), runScenario);
