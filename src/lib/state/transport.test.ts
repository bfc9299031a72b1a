import { describe, expect, it } from 'vitest';
import { apiFetch, displayableUrl, ledgerChannel, provideTransport } from './transport';

describe('the transport the browser host provides', () => {
  it('refuses, naming who provides it, before any host has', async () => {
    await expect(apiFetch('/sandbox/v1/chain/properties')).rejects.toThrow(/browser host provides it at start/);
    await expect(displayableUrl('/ipfs/x')).rejects.toThrow(/browser host provides it at start/);
    expect(() => ledgerChannel()).toThrow(/browser host provides it at start/);
  });

  it('hands every call to the transport provided last', async () => {
    const seen: string[] = [];
    const transport = (name: string) => ({
      fetch: async (input: RequestInfo | URL) => {
        seen.push(`${name} ${String(input)}`);
        return new Response(name);
      },
      displayableUrl: async (url: string) => `${name}:${url}`,
      ledgerChannel: `${name}-channel`
    });
    provideTransport(transport('first'));
    provideTransport(transport('second'));
    expect(await (await apiFetch('/sandbox/v1/x')).text()).toBe('second');
    expect(await displayableUrl('/ipfs/y')).toBe('second:/ipfs/y');
    expect(ledgerChannel()).toBe('second-channel');
    expect(seen).toEqual(['second /sandbox/v1/x']);
  });
});
