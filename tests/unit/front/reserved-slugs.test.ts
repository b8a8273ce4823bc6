/**
 * Every path the site serves at its root for itself (a page of src/pages, a folder of public/, the API
 * and the build folder) is a reserved slug, so no store can be named after one and be hidden by it.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { isSlug, RESERVED_SLUGS } from '../../../src/lib/slug.ts';

const rootNames = (dir: string) =>
  readdirSync(dir)
    .map((name) => name.replace(/\.(astro|ts)$/, ''))
    .filter((name) => isSlug(name));

describe('reserved slugs', () => {
  test('name every page, public folder and server path at the root', () => {
    const served = [...rootNames('src/pages'), ...rootNames('public'), 'api', 'builds', 'health'];
    expect(served.length).toBeGreaterThan(5);
    expect(served.filter((name) => !RESERVED_SLUGS.has(name))).toEqual([]);
  });
});
