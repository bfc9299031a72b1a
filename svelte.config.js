import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    // Single-page app: every route falls back to index.html, the service worker does the rest.
    adapter: adapter({ fallback: 'index.html' }),
    serviceWorker: { register: false }
  }
};

export default config;
