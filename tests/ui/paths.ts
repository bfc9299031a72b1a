// Where the UI tests build and serve the app (see tests/support/app-build.ts), and their screenshots.
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/app-build';

export { APP_BUILD_DIR as UI_BUILD_DIR, PROJECT_ROOT } from '../support/app-build';
export const SCREENSHOT_DIR = join(PROJECT_ROOT, 'test-results', 'screenshots');
