// The Chromium every browser test and benchmark drives: Debian's where it is installed (or
// CHROMIUM_PATH), with the switches that keep it from reaching for the network on its own.
import { existsSync } from 'node:fs';

/** Root needs --no-sandbox; the rest keep Chromium off a closed network (updates, sync, QUIC). */
export const CHROMIUM_ARGS: readonly string[] = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** Debian's Chromium where it is installed (or CHROMIUM_PATH); undefined: Playwright's own browser. */
export function installedChromium(): string | undefined {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((p): p is string => !!p && existsSync(p));
}
