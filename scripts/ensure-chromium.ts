/**
 * Finds Debian's Chromium for Playwright, installing it with apt when missing (Playwright's own
 * browser download cannot reach its servers here). Fails loudly when neither works.
 */
import { execFileSync } from 'node:child_process';
import { CHROMIUM_PATH as chromium } from './chromium.ts';
import { ensureDebianBinary } from './debian-package.ts';

ensureDebianBinary(chromium, 'chromium', 'CHROMIUM_PATH');
// Debian's wrapper script prints a harmless shell warning on stderr for --version; keep the output clean.
console.log(
  `Chromium: ${execFileSync(chromium, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()}`,
);
