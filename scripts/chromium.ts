/**
 * Debian's Chromium, as every browser in this project launches it (end-to-end tests, the XSS
 * corpus, the JavaScript weight and Lighthouse benches): the binary, and the flags for a headless
 * run on a machine without a sandbox, a GPU or outside network.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];
