// Single-page app: the ledger lives in the browser, nothing is rendered on a server.
export const ssr = false;
export const prerender = false;
