// Where the UI tests build and serve the app: a folder of their own, so neither a build someone
// runs meanwhile nor the e2e suite's build can swap files under the browser.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = join(PROJECT_ROOT, 'node_modules', '.cache', 'opalite-ui');
export const UI_BUILD_DIR = join(CACHE, 'build');
export const UI_KIT_DIR = join(CACHE, 'svelte-kit');
export const SCREENSHOT_DIR = join(PROJECT_ROOT, 'test-results', 'screenshots');
