import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, test } from 'vitest';
import { openDatabase } from '../../../src/server/db/connect.ts';
import { claimDataDir, DataDirInUseError, lockPathOf } from '../../../src/server/db/data-dir-lock.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A process that stays up until the test ends; `node` makes it look like a storefront to the lock. */
async function running(command: string, args: string[]): Promise<number> {
  const child = spawn(command, args, { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  return child.pid!;
}

async function exited(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

const folder = () => mkdtemp(path.join(tmpdir(), 'pglite-lock-'));
/**
 * Starting PGlite (WebAssembly), or a script that waits out the lock's grace for an exiting holder,
 * takes seconds on a busy machine, beyond the unit tests' 5 s.
 */
const SLOW = { timeout: 30_000 };

describe('one process per PGlite folder', () => {
  test('the first process to open a folder holds it, and may open it again', async () => {
    const dir = await folder();
    claimDataDir(dir, 0);
    expect(await readFile(lockPathOf(dir), 'utf8')).toBe(String(process.pid));
    expect(() => claimDataDir(dir, 0)).not.toThrow();
  });

  test('opening the database claims its folder, and closing it gives the folder back', SLOW, async () => {
    const dir = await folder();
    const db = openDatabase({ dataDir: dir });
    await sql`select 1`.execute(db);
    expect(await readFile(lockPathOf(dir), 'utf8')).toBe(String(process.pid));
    await db.destroy();
    await expect(access(lockPathOf(dir))).rejects.toThrow('ENOENT');
  });

  test('a folder another running Node process holds is refused, naming that process', async () => {
    const dir = await folder();
    const pid = await running(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    await writeFile(lockPathOf(dir), String(pid));
    expect(() => claimDataDir(dir, 0)).toThrow(DataDirInUseError);
    expect(() => claimDataDir(dir, 0)).toThrow(`(pid ${pid})`);
    expect(await readFile(lockPathOf(dir), 'utf8')).toBe(String(pid));
  });

  test('the lock of a process that died, or whose pid another program now has, is taken over', async () => {
    for (const pid of [await exited(), await running('sleep', ['30'])]) {
      const dir = await folder();
      await writeFile(lockPathOf(dir), String(pid));
      claimDataDir(dir, 0);
      expect(await readFile(lockPathOf(dir), 'utf8')).toBe(String(process.pid));
    }
  });

  test('npm run admin:invite beside a running store says what to do, without a stack trace', SLOW, async () => {
    const dir = await folder();
    claimDataDir(dir, 0);
    const cli = spawn(
      process.execPath,
      ['scripts/admin-invite.ts', '--store', 'acme', '--email', 'new@example.com', '--role', 'editor'],
      { env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(cli, 'exit')) as [number];
    expect(code).toBe(1);
    expect(stderr).toContain(`is open in another process (pid ${process.pid})`);
    expect(stderr).toContain('DATABASE_URL');
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  test('npm run build beside a running store fails before it builds the site the store serves', SLOW, async () => {
    const dir = await folder();
    const distDir = await folder();
    claimDataDir(dir, 0);
    const build = spawn(process.execPath, ['scripts/build.ts'], {
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', DIST_DIR: distDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(build);
    let output = '';
    for (const stream of [build.stdout, build.stderr])
      stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(build, 'exit')) as [number];
    expect(code).toBe(1);
    expect(output).toContain(`is open in another process (pid ${process.pid})`);
    expect(output).not.toContain('Building the storefront');
    expect(await readdir(distDir)).toEqual([]);
  });
});
