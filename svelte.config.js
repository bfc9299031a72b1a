import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

// The browser tests build into folders of their own (tests/e2e/global-setup.ts), so they never
// race a build someone runs at the same time.
const pages = process.env.OPALITE_BUILD_DIR ?? 'build';

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    // Single-page app: every route falls back to index.html, the service worker does the rest.
    adapter: adapter({ pages, assets: pages, fallback: 'index.html' }),
    outDir: process.env.OPALITE_KIT_DIR ?? '.svelte-kit',
    serviceWorker: { register: false }
  }
};

export default config;
