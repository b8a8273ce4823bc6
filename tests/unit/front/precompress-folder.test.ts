import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { precompressFolder } from '../../../src/front/astro-build.ts';

test('built assets get .br and .gz copies that decode to the file; small and binary files get none', async () => {
  const folder = await mkdtemp(path.join(tmpdir(), 'assets-'));
  await mkdir(path.join(folder, '_astro'));
  const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;
  await writeFile(path.join(folder, '_astro', 'app.abc.js'), script);
  await writeFile(path.join(folder, 'tiny.css'), 'a{}');
  await writeFile(path.join(folder, 'logo.png'), Buffer.alloc(4000, 1));
  await precompressFolder(folder);
  expect((await readdir(path.join(folder, '_astro'))).sort()).toEqual(['app.abc.js', 'app.abc.js.br', 'app.abc.js.gz']);
  expect(brotliDecompressSync(await readFile(path.join(folder, '_astro', 'app.abc.js.br'))).toString()).toBe(script);
  expect(gunzipSync(await readFile(path.join(folder, '_astro', 'app.abc.js.gz'))).toString()).toBe(script);
  expect((await readdir(folder)).sort()).toEqual(['_astro', 'logo.png', 'tiny.css']);
});
