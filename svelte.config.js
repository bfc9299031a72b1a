import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

// The browser tests build into folders of their own (tests/e2e/global-setup.ts), so they never
// race a build someone runs at the same time.
const pages = process.env.OPALITE_BUILD_DIR ?? 'build';

/**
 * The pages' Content-Security-Policy: no inline or foreign scripts. SvelteKit adds the hashes of
 * its own inline bootstrap script and writes the policy into every page as a <meta> tag (a static
 * build has no server to send headers); server/preview.ts repeats that tag as a header.
 */
export const contentSecurityPolicy = {
  'default-src': ['self'],
  // wasm: @polkadot/wasm-crypto compiles its WebAssembly in the page.
  'script-src': ['self', 'wasm-unsafe-eval'],
  'worker-src': ['self'],
  // Svelte transitions and style: directives write inline styles; scripts stay locked.
  'style-src': ['self', 'unsafe-inline'],
  // Token images and media: uploaded files (blob:), data: URIs and any web address.
  'img-src': ['self', 'data:', 'blob:', 'https:', 'http:'],
  'media-src': ['self', 'data:', 'blob:', 'https:', 'http:'],
  'font-src': ['self', 'data:'],
  // The REST service may be any base_url the person configures.
  'connect-src': ['self', 'blob:', 'data:', 'https:', 'http:'],
  'manifest-src': ['self'],
  'object-src': ['none'],
  'base-uri': ['self'],
  'form-action': ['self']
};

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    // Single-page app: every route falls back to index.html, the service worker does the rest.
    adapter: adapter({ pages, assets: pages, fallback: 'index.html' }),
    outDir: process.env.OPALITE_KIT_DIR ?? '.svelte-kit',
    serviceWorker: { register: false },
    csp: { mode: 'hash', directives: contentSecurityPolicy }
  }
};

export default config;
