// A wallet's basics, as a person uses them: a new account is funded, receives an NFT, pieces of a
// refungible token and a fungible amount (set up over REST, signed by //Alice), then its owner
// opens My tokens and sees them, reads its history with amounts in display units, and opens
// Receive: the address as text, a copy button, and a QR code that reads back as the address.
import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPreview } from '../../server/preview';
import { DESKTOP, asAlice, createAccount, fundFromAlice, launchBrowser, nav, serveApp, watchErrors } from './support';

const PASSWORD = 'wallet-pass-1';

describe('a wallet: my tokens, history, receive', () => {
  let preview: RunningPreview;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let wren: string;
  const outside: string[] = [];

  beforeAll(async () => {
    preview = await serveApp();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: DESKTOP });
    // Nothing the wallet shows comes from outside the app's own origin.
    context.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(preview.url) && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
    });
    page = await context.newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    wren = await createAccount(page, 'Wren', PASSWORD);
    await fundFromAlice(page, 'Wren');

    const image = await page.evaluate(async () => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 16, height: 16 });
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#2f9e6b';
      g.fillRect(0, 0, 16, 16);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      const form = new FormData();
      form.set('file', blob, 'shell.png');
      return (await (await fetch('/sandbox/v1/ipfs/upload-file', { method: 'POST', body: form })).json()).cid as string;
    });
    const { collectionId: shells } = await asAlice(page, 'POST', '/collections', {
      name: 'Shells',
      description: '',
      tokenPrefix: 'SHL',
      schema: { schemaName: 'unique', schemaVersion: '1.0.0', image: { urlTemplate: '{infix}' }, coverPicture: { ipfsCid: image } }
    });
    await asAlice(page, 'POST', '/tokens', { collectionId: shells, owner: wren, data: { name: { _: 'Conch' }, image: { ipfsCid: image } } });
    const { collectionId: sand } = await asAlice(page, 'POST', '/fungible/collection', { name: 'Sand', description: '', tokenPrefix: 'SND', decimals: 2 });
    await asAlice(page, 'POST', '/fungible/tokens', { collectionId: sand, amount: 12.5, recipient: wren });
    const { collectionId: reef } = await asAlice(page, 'POST', '/refungible/collection', { name: 'Reef', description: '', tokenPrefix: 'RF' });
    const { tokenId } = await asAlice(page, 'POST', '/refungible/tokens', { collectionId: reef, amount: 100 });
    await asAlice(page, 'POST', '/refungible/tokens/transfer', { collectionId: reef, tokenId, to: wren, amount: 40 });
  });

  afterAll(async () => {
    await browser?.close();
    await preview?.close();
  });

  it('shows the NFT with its thumbnail, the pieces as amount of total and the fungible balance in display units', async () => {
    await nav(page, 'Accounts');
    await page.getByRole('article', { name: 'Wren' }).getByRole('link', { name: 'Tokens of Wren' }).click();
    await page.getByRole('heading', { level: 1, name: 'My tokens' }).waitFor();

    const nfts = page.getByRole('list', { name: 'NFTs' });
    await nfts.getByRole('link', { name: /Conch/ }).waitFor();
    const thumbnail = nfts.getByRole('img', { name: 'Thumbnail of Conch' });
    await expect.poll(() => thumbnail.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(16);
    await expect.poll(() => page.getByRole('list', { name: 'Pieces of refungible tokens' }).getByTestId('pieces-amount').textContent()).toBe('40 of 100 pieces');
    await expect.poll(() => page.getByRole('list', { name: 'Fungible balances' }).getByTestId('fungible-amount').textContent()).toBe('12.5 SND');

    await nfts.getByRole('link', { name: /Conch/ }).click();
    await page.waitForURL(/\/collections\/\d+\/tokens\/1$/);
  });

  it('reads the history newest first, with counterparties and amounts in display units, each linked to its extrinsic', async () => {
    await nav(page, 'Wallet');
    // The Wallet link shows the account that signs: Wren, the only one.
    await page.getByRole('navigation', { name: 'Wallet' }).getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
    const items = page.getByTestId('history-item');
    await expect.poll(() => items.count()).toBe(4);
    const texts = (await items.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(texts[0]).toMatch(/^Received 40 pieces of RF #1 from .*Alice/);
    expect(texts[1]).toMatch(/^Minted 12\.5 SND by .*Alice/);
    expect(texts[2]).toMatch(/^Minted SHL #1 by .*Alice/);
    expect(texts[3]).toMatch(/^Received 1 000 OPL from .*Alice/);
    expect(await page.getByTestId('history-balance').last().textContent()).toBe('Balance +1 000 OPL');

    // The first link of an entry is its call, leading to the extrinsic in the explorer.
    await page.getByTestId('history-entry').first().getByRole('link').first().click();
    await page.waitForURL(/\/explorer\/extrinsic\/0x[0-9a-f]{64}$/);
  });

  it('opens Receive: the address as text, a copy button, and a QR code that reads back as the address', async () => {
    await nav(page, 'Accounts');
    const card = page.getByRole('article', { name: 'Wren' });
    await card.getByRole('button', { name: 'Receive to Wren' }).click();
    const receive = card.getByRole('region', { name: 'Receive to Wren' });
    expect(await receive.getByLabel('Address', { exact: true }).inputValue()).toBe(wren);
    await receive.getByRole('button', { name: 'Copy address' }).waitFor();

    const qr = receive.getByRole('img', { name: 'QR code of the address of Wren' });
    const drawn = await qr.evaluate((svg) => ({ box: Number(svg.getAttribute('viewBox')!.split(' ')[2]), path: svg.querySelector('path')!.getAttribute('d')! }));
    expect(decodeQr(drawn.box, drawn.path)).toBe(wren);

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});

/** Reads the SVG path of a drawn QR code (one `M x y h1v1h-1z` square per dark module) with jsQR. */
function decodeQr(box: number, path: string): string | undefined {
  const scale = 4;
  const side = box * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, x, y] of path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const at = ((Number(y) * scale + dy) * side + Number(x) * scale + dx) * 4;
        data.fill(0, at, at + 3);
      }
    }
  }
  return jsQR(data, side, side)?.data;
}
