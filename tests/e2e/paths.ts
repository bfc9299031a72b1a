// Where the browser tests build and serve the app (see global-setup.ts).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = join(PROJECT_ROOT, 'node_modules', '.cache', 'opalite-e2e');
export const E2E_BUILD_DIR = join(CACHE, 'build');
export const E2E_KIT_DIR = join(CACHE, 'svelte-kit');
