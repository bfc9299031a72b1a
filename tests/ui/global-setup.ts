// Build the app once for the UI tests (shared with the e2e suite; see tests/support/app-build.ts).
import { ensureAppBuild } from '../support/app-build';

export default function setup(): void {
  ensureAppBuild('ui');
}
