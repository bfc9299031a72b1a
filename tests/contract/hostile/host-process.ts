// The Node host in a process of its own, started exactly as the contract tests start it
// (support.ts startTestHost), so a hostile request that freezes or bloats it cannot take the test
// runner with it, and its resident memory can be read from /proc. Options arrive as JSON in
// OPALITE_HOST_OPTIONS; the URL is announced on stdout.
import { startTestHost } from '../support';

const options = JSON.parse(process.env.OPALITE_HOST_OPTIONS ?? '{}');
const host = await startTestHost(options);
process.stdout.write(`OPALITE_READY ${JSON.stringify({ url: host.url, pid: process.pid })}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void host.stop().finally(() => process.exit(0));
  });
}
