// Build the app once for the whole e2e run (shared with the ui suite; see tests/support/app-build.ts).
import { ensureAppBuild } from '../support/app-build';

export default function setup(): void {
  ensureAppBuild('e2e');
}
