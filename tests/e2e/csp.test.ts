// The app's Content-Security-Policy: every page states it (a <meta> tag, and a header from the
// static server), scripts come only from the app's origin or by the hash of SvelteKit's own
// bootstrap script, and a script injected into the page does not run, online or offline.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { pagePolicy, type RunningPreview } from '../../server/preview';
import { closeAppSession, openAppSession, waitForWorker } from './support';

let browser: Browser;
let app: RunningPreview;
let context: BrowserContext;
let page: Page;

beforeAll(async () => ({ browser, app, context, page } = await openAppSession()));
afterAll(() => closeAppSession({ browser, app }));

/** The sources of one directive of a policy. */
function directive(policy: string, name: string): string[] {
  const entry = policy.split(';').map((d) => d.trim().split(/\s+/)).find(([key]) => key === name);
  return entry?.slice(1) ?? [];
}

/** Injects an inline script; answers whether it ran and which directive refused it. */
function injectInlineScript(page: Page): Promise<{ ran: boolean; refusedBy: string | null }> {
  return page.evaluate(async () => {
    const refused = new Promise<string>((resolve) =>
      document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), { once: true })
    );
    const script = document.createElement('script');
    script.textContent = 'window.__opaliteInjected = true;';
    document.head.append(script);
    // An allowed inline script runs as it is inserted; a refused one is reported by an event.
    const ran = (window as unknown as { __opaliteInjected?: boolean }).__opaliteInjected === true;
    return { ran, refusedBy: ran ? null : await refused };
  });
}

describe('the content security policy', () => {
  it('is stated by every page, as a meta tag and the same header, and allows no inline script but its own', async () => {
    for (const path of ['', 'collections/1']) {
      const response = await fetch(new URL(path, app.url), { headers: { accept: 'text/html' } });
      const html = await response.text();
      const header = response.headers.get('content-security-policy');
      expect(header).toBe(pagePolicy(html));
      const scripts = directive(header!, 'script-src');
      expect(scripts).toEqual(expect.arrayContaining(["'self'", "'wasm-unsafe-eval'"]));
      expect(scripts).not.toContain("'unsafe-inline'");
      expect(scripts).not.toContain("'unsafe-eval'");
      expect(directive(header!, 'object-src')).toEqual(["'none'"]);
      expect(directive(header!, 'frame-ancestors')).toEqual(["'none'"]);
      // A remote REST service the person configures must stay reachable.
      expect(directive(header!, 'connect-src')).toEqual(expect.arrayContaining(["'self'", 'https:', 'http:']));
      // SvelteKit's inline bootstrap script runs by its hash, and it is the only inline script.
      const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
      expect(inline.length).toBeGreaterThan(0);
      for (const hash of inline) expect(scripts).toContain(hash);
    }
  });

  it('refuses a script injected into the page', async () => {
    expect(await injectInlineScript(page)).toEqual({ ran: false, refusedBy: 'script-src-elem' });
  });

  it('refuses it too in the page the service worker serves offline', async () => {
    await context.setOffline(true);
    try {
      await page.reload();
      await waitForWorker(page);
      expect(await injectInlineScript(page)).toEqual({ ran: false, refusedBy: 'script-src-elem' });
    } finally {
      await context.setOffline(false);
    }
  });
});
