// Runs the SDK scenarios shared with the service-worker suite (tests/support/sdk-*-scenarios.ts)
// against a Node host of its own, with their shared expectations.
import { afterAll, beforeAll } from 'vitest';
import type { RunningHost } from '../../server/host';
import { describeExpectations, type Expectation } from '../support/sdk-v2-expectations';
import type { Clients } from '../support/sdk-v2-scenarios';
import { sdkFor, startTestHost } from './support';

export function runOnNodeHost(groups: Map<string, Expectation[]>, runScenario: (name: string, clients: Clients) => Promise<unknown>): void {
  let host: RunningHost;
  let clients: Clients;
  beforeAll(async () => {
    host = await startTestHost();
    clients = { alice: sdkFor(host, '//Alice'), bob: sdkFor(host, '//Bob') };
  });
  afterAll(() => host?.stop());
  describeExpectations(groups, (name) => runScenario(name, clients));
}
