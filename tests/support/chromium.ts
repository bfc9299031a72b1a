// The Chromium every browser test and benchmark drives (CHROMIUM_PATH, else Debian's: its headless
// shell for tests, Chromium itself for benchmarks and Lighthouse, else Playwright's own browser),
// with the switches that keep it from reaching for the network on its own.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Root needs --no-sandbox; the rest keep Chromium off a closed network (updates, sync, QUIC). */
export const CHROMIUM_ARGS: readonly string[] = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** Debian's build of the same engine without the desktop browser around it (apt: chromium-headless-shell). */
const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

function firstPresent(paths: (string | undefined)[]): string | undefined {
  return paths.find((p): p is string => !!p && existsSync(p));
}

/**
 * The browser a person runs, for benchmarks and Lighthouse: Debian's Chromium (or CHROMIUM_PATH);
 * undefined: Playwright's own browser.
 */
export function installedChromium(): string | undefined {
  return firstPresent([process.env.CHROMIUM_PATH, DEBIAN_CHROMIUM]);
}

/**
 * The browser tests' Chromium: CHROMIUM_PATH, else Debian's headless shell (what Playwright itself
 * runs headless tests in; measured on a slow machine: started in 1.0 s against 5.7 s, and a fresh
 * context was controlled by the app's worker in 13 s against 18–24 s), else Debian's Chromium,
 * else (undefined) Playwright's own browser.
 */
export function testChromium(): string | undefined {
  return firstPresent([process.env.CHROMIUM_PATH, DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM]);
}

/**
 * Playwright's wait for each action and locator, in every context a browser test opens: its 30 s
 * default is a blink on a slow, shared machine, where the page spent longer than that in scrypt
 * (N = 2^15, as polkadot{.js} writes a keystore) importing a key, so a click that lands once the
 * page answers failed. A ceiling, not a wait: a passing test costs the same.
 */
const ACTION_TIMEOUT_MS = 120_000;

function withTestTimeouts(context: BrowserContext): BrowserContext {
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  return context;
}

/** The browser tests' Chromium, headless, whose every new context (and `newPage`) waits ACTION_TIMEOUT_MS. */
export async function launchTestChromium(extraArgs: string[] = [], executablePath = testChromium()): Promise<Browser> {
  const browser = await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
  const newContext = browser.newContext.bind(browser);
  // Browser.newPage makes its context through this method too.
  browser.newContext = async (options) => withTestTimeouts(await newContext(options));
  return browser;
}

/** A browser profile kept on disk (the test can close the browser and open it again), as launchTestChromium. */
export async function launchPersistentTestChromium(userDataDir: string): Promise<BrowserContext> {
  return withTestTimeouts(await chromium.launchPersistentContext(userDataDir, { executablePath: testChromium(), headless: true, args: [...CHROMIUM_ARGS] }));
}
