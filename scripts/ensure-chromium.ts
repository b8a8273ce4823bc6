/**
 * Finds Debian's Chromium for Playwright, installing it with apt when missing (Playwright's own
 * browser download cannot reach its servers here). Fails loudly when neither works.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(chromium)) {
  console.log(`${chromium} not found: installing Debian's chromium package…`);
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args: string[]) => {
    const [command, ...rest] = [...asRoot, ...args];
    execFileSync(command!, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  try {
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', 'chromium']);
  } catch (error) {
    console.error(`Could not install Chromium (needs root or passwordless sudo and Debian's apt). Install it with
  apt-get install -y chromium
or set CHROMIUM_PATH to a Chromium binary.`);
    throw error;
  }
  if (!existsSync(chromium)) throw new Error(`apt installed chromium but ${chromium} is still missing; set CHROMIUM_PATH.`);
}
// Debian's wrapper script prints a harmless shell warning on stderr for --version; keep the output clean.
console.log(`Chromium: ${execFileSync(chromium, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()}`);
