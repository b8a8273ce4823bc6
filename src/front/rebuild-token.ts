import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The token `POST /api/admin/builds` requires: `REBUILD_TOKEN`, or one generated once and kept
 * in `{buildsDir}/.rebuild-token` (mode 600) so `npm run rebuild` on the same machine can use it.
 */
export async function readRebuildToken(configured: string | undefined, buildsDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(buildsDir, '.rebuild-token');
  const existing = await readFile(file, 'utf8').catch(() => '');
  if (existing.trim()) return existing.trim();
  const token = randomBytes(32).toString('base64url');
  await mkdir(buildsDir, { recursive: true });
  await writeFile(file, token, { mode: 0o600 });
  return token;
}
