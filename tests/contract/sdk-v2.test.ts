// The real @unique-nft/sdk 0.7.7 client against the Node host: Unique schema 2 collections and
// tokens (createV2, createMultipleV2, getV2) both ways across v1 and v2 readers, and the
// collection methods creation (the deprecated create) and nextSponsored. The scenarios and their
// expectations are shared with the service-worker suite (tests/e2e/sdk-v2-browser.test.ts).
import { byGroup } from '../support/sdk-v2-expectations';
import { runScenario } from '../support/sdk-v2-scenarios';
import { runOnNodeHost } from './shared-scenarios';

runOnNodeHost(byGroup(), runScenario);
