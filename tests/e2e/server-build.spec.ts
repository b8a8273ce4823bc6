/**
 * The Astro server build the e2e server runs (DIST_DIR, `dist` by default) carries React's production
 * build, chosen at build time: nothing has to set NODE_ENV before the server is loaded, and the pages
 * never render with development React whatever NODE_ENV the API runs with (ADR 160).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';

test('the server build bundles production React and reads no NODE_ENV at run time', async () => {
  const folder = path.resolve(process.env.DIST_DIR ?? 'dist', 'server');
  const files = (await readdir(folder, { recursive: true })).filter((file) => file.endsWith('.mjs'));
  expect(files.length).toBeGreaterThan(0);
  const sources = await Promise.all(files.map((file) => readFile(path.join(folder, file), 'utf8')));
  expect(files.filter((_, i) => sources[i]!.includes('process.env.NODE_ENV'))).toEqual([]);
  // React and every package that calls its hooks are bundled, so the server holds one React.
  const externalReact = /from\s*["'](react|react-dom|@nanostores\/react|@stripe\/react-stripe-js)(\/[\w/.-]*)?["']/;
  expect(files.filter((_, i) => externalReact.test(sources[i]!))).toEqual([]);
});
