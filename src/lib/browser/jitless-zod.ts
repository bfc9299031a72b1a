// Pages run under a Content-Security-Policy without 'unsafe-eval'. Zod compiles its object parsers
// with `new Function` after a caught probe, which Chromium (156 on) still reports as a CSP
// violation in its Issues panel. A page could never compile them anyway: zod is told so up front.
import { config } from 'zod';

config({ jitless: true });
