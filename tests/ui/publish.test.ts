// Publish to a network: a collection designed in the sandbox (a schema with an attribute and a
// cover, three tokens with images, one nested into another) is recreated on a Node host running
// the real chain's rules (`--rules unique`) with the person's own key: the plan first (extrinsics,
// files), the run, then everything checked ON THE TARGET over REST; a network failure mid-run
// and a resume that makes nothing twice; the map of token ids kept and downloadable; opened
// again, the finished run offered instead of a second plan; a signer without funds stopped.
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../server/host';
import type { RunningPreview } from '../../server/preview';
import { DESKTOP, PHONE, approve, axeViolations, createAccount, fundFromAlice, launchBrowser, nav, png, screenshotPath, serveApp, watchErrors } from './support';

const PASSWORD = 'publish-pass-1';

/** A GET of the target's REST API from the test process. */
async function onTarget(target: RunningHost, path: string): Promise<any> {
  const response = await fetch(`${target.url}${path}`);
  expect(response.status, `GET ${path}`).toBe(200);
  return response.json();
}

/** Funds `address` on the target (its own ledger) from //Alice, signed by the host's dev Seed header. */
async function fundOnTarget(target: RunningHost, address: string): Promise<void> {
  const response = await fetch(`${target.url}/balance/transfer?use=Result`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Seed //Alice' },
    body: JSON.stringify({ address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', destination: address, amount: 1000 })
  });
  const result = await response.json();
  expect(response.ok, JSON.stringify(result)).toBe(true);
  expect(result.isError ?? false).toBe(false);
}

describe('publish to a network', () => {
  let preview: RunningPreview;
  let target: RunningHost;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let address: string;

  beforeAll(async () => {
    preview = await serveApp();
    target = await startHost({ port: 0, rules: 'unique', cors: [new URL(preview.url).origin], log: () => {} });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    errors = watchErrors(page);
    await page.goto(preview.url);
    address = await createAccount(page, 'Ada', PASSWORD);
    await fundOnTarget(target, address);
  });

  afterAll(async () => {
    await browser?.close();
    await target?.stop();
    await preview?.close();
  });

  // The whole journey in one test (the later steps need the earlier ones): it ran past the suite's
  // 400 s on a machine 5–8× slower than usual.
  it('designs a collection in the sandbox, plans, publishes to the target, resumes after a failure without duplicates', { timeout: 900_000 }, async () => {
    // ---- the design, in the sandbox ----
    await fundFromAlice(page, 'Ada');
    await nav(page, 'Collections');
    await page.getByRole('link', { name: 'Create collection' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Sea birds');
    await page.getByLabel('Token prefix').fill('SEA');
    await page.getByLabel('Description').fill('Birds of the coast');
    await page.getByRole('radio', { name: 'Upload a file' }).check();
    await page.getByLabel('Image file').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png(11) });
    await page.getByRole('button', { name: 'Add attribute' }).click();
    await page.getByLabel('Attribute 1 name').fill('color');
    await page.getByLabel('Allowed values').fill('red, green, blue');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    await page.waitForURL(/\/collections\/1$/);

    await page.getByRole('link', { name: 'Mint tokens' }).click();
    await page.getByRole('button', { name: 'Many tokens' }).click();
    const birds = ['gull', 'tern', 'puffin'];
    await page.getByLabel('Image files').setInputFiles(birds.map((bird, i) => ({ name: `${bird}.png`, mimeType: 'image/png', buffer: png(20 + i) })));
    const csv = `name,image,color\n${birds.map((bird, i) => `${bird},${bird}.png,${['red', 'green', 'blue'][i]}`).join('\n')}\n`;
    await page.getByLabel('List file (CSV or JSON)').setInputFiles({ name: 'birds.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByTestId('mint-ready').textContent()).toBe('3 tokens ready to mint.');
    await page.getByRole('button', { name: 'Mint 3 tokens' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createMultipleItemsEx' });
    await expect.poll(() => page.getByTestId('minted-summary').textContent()).toContain('Minted 3 tokens: 1–3.');

    // Tern (2) into Gull (1).
    await page.goto(`${preview.url}collections/1/tokens/2`);
    await page.getByLabel('Parent collection id').fill('1');
    await page.getByLabel('Parent token id').fill('1');
    await page.getByRole('button', { name: 'Nest token' }).click();
    expect((await approve(page, { password: PASSWORD })).call).toBe('unique.transferFrom');
    await page.getByRole('tree', { name: 'Bundle of token 1/1' }).waitFor();

    // ---- the plan ----
    await page.goto(`${preview.url}collections/1`);
    await page.getByRole('link', { name: 'Publish to a network…' }).click();
    await page.getByRole('heading', { level: 1, name: 'Publish collection 1 to a network' }).waitFor();
    await page.getByLabel('Target base URL').fill('not a url');
    await page.getByRole('button', { name: 'Check the target' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('"not a url" is not a URL; write it like https://rest.unique.network/opal/v1');
    await page.getByLabel('Target base URL').fill(target.url);
    await page.getByRole('button', { name: 'Check the target' }).click();
    await expect.poll(() => page.getByTestId('target-status').textContent()).toBe(`${target.url} answers: OPL, SS58 prefix 42. The signer has 1 000 OPL there.`);
    await page.getByRole('button', { name: 'Make plan' }).click();
    const plan = page.getByRole('table', { name: 'Publish plan' });
    await plan.waitFor();
    // A cover and three token images; create, one mint of three, one nesting.
    expect(await page.getByTestId('plan-summary').textContent()).toMatch(/^\s*3 extrinsics to sign, 4 files to upload \(\d+ bytes\)\s*$/);
    const steps = await plan.getByTestId('plan-step').allInnerTexts();
    expect(steps.slice(4).map((s) => s.split('\t').slice(1, 3).join(' | '))).toEqual([
      expect.stringMatching(/^Create collection “Sea birds” \| \d[\d.]* OPL$/),
      'Mint 3 tokens (source tokens 1–3) | known after step 5',
      'Nest token 2 into token 1 | known after step 5'
    ]);
    // The mint's and the nesting's fees: built on this network, scaled to the target's.
    expect(await page.getByTestId('plan-total').textContent()).toMatch(
      /^Fees: \d[\d.]* OPL to create the collection; about \d[\d.]* OPL for the other 2 extrinsics \(estimated from their fees on this network; each is shown exactly once the collection exists on the target\)\.$/
    );

    const violations = await axeViolations(page);
    if (violations) expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.screenshot({ path: screenshotPath('publish-plan-1280'), fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: screenshotPath('publish-plan-390'), fullPage: true });
    await page.setViewportSize(DESKTOP);

    // ---- the run, with the network failing at the nesting ----
    const nestRoute = `${target.url}/tokens/nest**`;
    await page.route(nestRoute, (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await approve(page, { password: PASSWORD, call: 'unique.createCollectionEx' });
    await expect.poll(() => page.getByTestId('publish-failure').textContent(), { timeout: 90_000 }).toMatch(/^Stopped at “Nest token 2 into token 1”: Could not reach /);
    // The mint was signed without a second dialog; its tokens are on the target.
    expect((await onTarget(target, '/collections/tokens?collectionId=1')).ids).toEqual([1, 2, 3]);
    expect(await plan.getByTestId('step-state').allTextContents()).toEqual(['done', 'done', 'done', 'done', 'done', 'done', 'failed']);

    await page.unroute(nestRoute);
    await page.getByRole('button', { name: 'Resume' }).click();
    await approve(page, { password: PASSWORD, call: 'unique.transferFrom' });
    await expect.poll(() => page.getByTestId('publish-status').textContent(), { timeout: 90_000 }).toBe(`Published: collection 1 on ${target.url}, all 7 steps done.`);

    // ---- on the target, over REST ----
    const collections = (await onTarget(target, '/collections/list')).collections;
    expect(collections.map((c: { id: number }) => c.id)).toEqual([1]);
    const source = await page.evaluate(async () => {
      const get = async (path: string) => (await fetch(`/sandbox/v1${path}`)).json();
      return { collection: await get('/collections?collectionId=1'), tokens: await Promise.all([1, 2, 3].map((id) => get(`/tokens?collectionId=1&tokenId=${id}`))) };
    });
    const copy = await onTarget(target, '/collections?collectionId=1');
    expect([copy.name, copy.description, copy.tokenPrefix, copy.owner]).toEqual(['Sea birds', 'Birds of the coast', 'SEA', address]);
    expect(copy.properties).toEqual(source.collection.properties);
    expect(copy.tokenPropertyPermissions).toEqual(source.collection.tokenPropertyPermissions);
    expect(copy.schema.attributesSchema['0'].name._).toBe('color');
    expect((await onTarget(target, '/collections/tokens?collectionId=1')).ids).toEqual([1, 2, 3]);
    for (const [i, sourceToken] of source.tokens.entries()) {
      const token = await onTarget(target, `/tokens?collectionId=1&tokenId=${i + 1}`);
      expect(token.properties).toEqual(sourceToken.properties);
      expect(token.image.ipfsCid).toBe(sourceToken.image.ipfsCid);
      const bytes = Buffer.from(await (await fetch(`${new URL(target.url).origin}/ipfs/${token.image.ipfsCid}`)).arrayBuffer());
      expect(bytes.equals(png(20 + i))).toBe(true);
    }
    const cover = Buffer.from(await (await fetch(`${new URL(target.url).origin}/ipfs/${copy.schema.coverPicture.ipfsCid}`)).arrayBuffer());
    expect(cover.equals(png(11))).toBe(true);
    expect((await onTarget(target, '/tokens?collectionId=1&tokenId=2')).nestingParentToken).toMatchObject({ collectionId: 1, tokenId: 1 });
    expect((await onTarget(target, '/tokens?collectionId=1&tokenId=1')).owner).toBe(address);

    // ---- where things went: the map kept with the run, downloadable, and the link to the target ----
    const restUrl = `${target.url}/collections?collectionId=1`;
    const map = page.getByRole('table', { name: 'Token map' });
    expect((await map.getByRole('row').allInnerTexts()).slice(1)).toEqual(['1\t1', '2\t2', '3\t3']);
    expect(await page.getByTestId('published-link').last().getAttribute('href')).toBe(restUrl);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download token map (CSV)' }).click()]);
    expect(await readFile(await download.path(), 'utf8')).toBe('source_token_id,target_token_id\n1,1\n2,2\n3,3\n');

    // ---- opened again: the finished run is offered instead of a second plan ----
    await page.goto(`${preview.url}collections/1/publish`);
    const before = page.getByTestId('published-before');
    await before.waitFor();
    expect(await before.textContent()).toMatch(/^Published on \S.* as collection 1 on /);
    expect(await before.textContent()).toContain(` as collection 1 on ${target.url}.`);
    await page.getByLabel('Target base URL').fill(target.url);
    await page.getByRole('button', { name: 'Make plan' }).click();
    const there = page.getByTestId('published-there');
    await there.waitFor();
    expect(await there.getByRole('link', { name: 'Open collection 1' }).getAttribute('href')).toBe(restUrl);
    expect(await page.getByRole('table', { name: 'Publish plan' }).count()).toBe(0);

    // ---- a signer with nothing on the target: the plan cannot start and says what is missing ----
    const bea = await createAccount(page, 'Bea', PASSWORD);
    await page.goto(`${preview.url}collections/1/publish`);
    await page.getByLabel('Target base URL').fill(target.url);
    await page.getByLabel('Signer').selectOption(bea);
    await page.getByRole('button', { name: 'Make plan' }).click();
    await page.getByRole('button', { name: 'Plan a second copy anyway' }).click();
    await plan.waitFor();
    await expect.poll(() => page.getByTestId('missing-funds').textContent()).toMatch(/^The signer has 0 OPL on the target and needs about (\S+) OPL \(the fee to create the collection, and the other 3 extrinsics' fees as estimated from this network's\): ≈?\1 OPL missing\./);
    expect(await page.getByRole('button', { name: 'Publish', exact: true }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });
});
