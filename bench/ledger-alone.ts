// The baseline of the Node host's signed-extrinsic target (bench/storage.ts, N1): the same host as
// `npm run serve` starts (startHost: SQLite, signature-check threads, write lock) in this process,
// driven without HTTP. Transfers are built and signed untimed; what is timed, in CPU time of this
// whole process (all threads), is each account's submit until its extrinsic is included, 16
// accounts in flight: the ledger's own work per extrinsic.
import { hexToU8a } from '@polkadot/util';
import { startHost } from '../server/host';
import { pairFromSeed } from '../src/lib/codec/signature';
import type { Ledger } from '../src/lib/ledger/chain/ledger';

export interface AloneSigner {
  pair: { address: string };
  sign(message: Uint8Array): string;
}

export interface LedgerAlone {
  /** `each` transfers per signer, all signers in flight; the CPU time this process spent (ms), the wall time (ms) and any failures. */
  run(each: number): Promise<{ cpuMs: number; ms: number; failures: string[] }>;
  stop(): Promise<void>;
}

type Payload = Parameters<Ledger['submit']>[0];

export async function startLedgerAlone(dataFile: string, signers: AloneSigner[], destination: string): Promise<LedgerAlone> {
  const running = await startHost({ port: 0, dataFile, log: () => {} });
  try {
    for (const { pair } of signers) {
      const res = await running.host.handle(
        new Request(`${running.url}/balance/transfer?use=Result`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' },
          body: JSON.stringify({ address: pairFromSeed('//Alice').address, destination: pair.address, amount: '100' })
        })
      );
      if (res.status !== 201) throw new Error(`funding ${pair.address} → ${res.status} ${(await res.text()).slice(0, 300)}`);
    }
  } catch (e) {
    await running.stop();
    throw e;
  }
  const nonces = new Map<string, number>();
  for (const { pair } of signers) nonces.set(pair.address, await running.ledger.nextNonce(pair.address));

  const signed = async ({ pair, sign }: AloneSigner, n: number) => {
    const out: { json: Payload; signature: string }[] = [];
    for (let i = 0; i < n; i++) {
      const nonce = nonces.get(pair.address)!;
      nonces.set(pair.address, nonce + 1);
      const built = await running.ledger.build(pair.address, { name: 'balances.transferKeepAlive', args: { dest: destination, value: 1n } } as never, { nonce, immortal: true });
      out.push({ json: built.signerPayloadJSON, signature: sign(hexToU8a(built.signerPayloadHex)) });
    }
    return out;
  };

  return {
    async run(each) {
      const lists = await Promise.all(signers.map((s) => signed(s, each)));
      const failures: string[] = [];
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(
        lists.map(async (list) => {
          for (const x of list) {
            const record = await (await running.ledger.submit(x.json, x.signature)).included;
            if (record.isError) failures.push(JSON.stringify(record.error).slice(0, 200));
          }
        })
      );
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      return { cpuMs: (cpu.user + cpu.system) / 1000, ms, failures };
    },
    stop: () => running.stop()
  };
}
