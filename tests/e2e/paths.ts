// Where the browser tests build and serve the app (see tests/support/app-build.ts).
export { APP_BUILD_DIR as E2E_BUILD_DIR, PROJECT_ROOT } from '../support/app-build';
