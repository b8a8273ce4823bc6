import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Makes sure a program from Debian's packages is at `binary`, installing `pkg` with apt when it is
 * missing (root, or passwordless sudo). Fails loudly, saying how to install it by hand, when it cannot.
 */
export function ensureDebianBinary(binary: string, pkg: string, overrideVariable: string): void {
  if (existsSync(binary)) return;
  console.log(`${binary} not found: installing Debian's ${pkg} package…`);
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args: string[]) => {
    const [command, ...rest] = [...asRoot, ...args];
    execFileSync(command!, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  try {
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', pkg]);
  } catch (error) {
    console.error(`Could not install ${pkg} (needs root or passwordless sudo and Debian's apt). Install it with
  apt-get install -y ${pkg}
or set ${overrideVariable} to its binary.`);
    throw error;
  }
  if (!existsSync(binary))
    throw new Error(`apt installed ${pkg} but ${binary} is still missing; set ${overrideVariable}.`);
}
