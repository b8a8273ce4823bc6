import { mkdtemp, readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { isMediaName, MediaFolder, mediaUrl, parseMediaUrl } from '../../../src/server/media/media-folder.ts';

describe('media names', () => {
  test.each(['watch-1.svg', 'Watch_1.PNG', 'a.jpeg', 'favicon.ico', 'photo.v2.webp'])('%s is one', (name) => {
    expect(isMediaName(name)).toBe(true);
  });
  test.each([
    '',
    '.hidden.svg',
    '..svg',
    'a..b.svg',
    '../x.svg',
    'a/b.svg',
    'a\\b.svg',
    'x.html',
    'x.svg.js',
    'x',
    'x%2F.svg',
    'a b.svg',
    `${'a'.repeat(200)}.svg`,
    'x.svg\u0000',
  ])('%j is not', (name) => {
    expect(isMediaName(name)).toBe(false);
  });
});

describe('media URLs', () => {
  test('a store media file lives at /{slug}/media/{name}, and the URL parses back', () => {
    expect(mediaUrl('vip', 'watch-1.svg')).toBe('/vip/media/watch-1.svg');
    expect(parseMediaUrl('/vip/media/watch-1.svg')).toEqual({ slug: 'vip', name: 'watch-1.svg' });
    expect(parseMediaUrl('/vip/media/watch%2D1.svg')).toEqual({ slug: 'vip', name: 'watch-1.svg' });
  });

  test.each([
    '/vip/media/..%2F..%2Fpackage.json',
    '/vip/media/%2e%2e%2Fsecret.svg',
    '/acme/media/..%2Fvip%2Fwatch-1.svg',
    '/vip/media/',
    '/vip/media/a/b.svg',
    '/VIP/media/watch-1.svg',
    '/vip%3B%20Path%3D%2F/media/watch-1.svg',
    '/vip/media/watch-1.svg/',
    '/media/watch-1.svg',
    '/vip/images/watch-1.svg',
    '/vip/media/%E0%A4%A.svg',
  ])('%s is no media URL', (pathname) => {
    expect(parseMediaUrl(pathname)).toBeNull();
  });
});

describe('the media folder', () => {
  test('a written file is found with its type and size; no temporary file is left behind', async () => {
    const folder = new MediaFolder(await mkdtemp(path.join(tmpdir(), 'media-')));
    expect(await folder.write('vip', 'watch-1.svg', '<svg/>')).toBe('/vip/media/watch-1.svg');
    expect(await folder.find('vip', 'watch-1.svg')).toMatchObject({
      type: 'image/svg+xml',
      size: 6,
      file: path.join(folder.root, 'vip', 'watch-1.svg'),
    });
    expect(await readdir(path.join(folder.root, 'vip'))).toEqual(['watch-1.svg']);
    await folder.write('vip', 'watch-1.svg', '<svg>2</svg>');
    expect(await readFile(path.join(folder.root, 'vip', 'watch-1.svg'), 'utf8')).toBe('<svg>2</svg>');
  });

  test('nothing outside a store folder is ever found or written, whatever the names', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'media-'));
    await writeFile(path.join(root, 'secret.svg'), 'secret');
    await mkdir(path.join(root, 'vip', 'sub.svg'), { recursive: true });
    const folder = new MediaFolder(path.join(root));
    expect(await folder.find('vip', '../secret.svg')).toBeNull();
    expect(await folder.find('..', 'secret.svg')).toBeNull();
    expect(await folder.find('vip', 'sub.svg')).toBeNull();
    expect(await folder.find('vip', 'missing.svg')).toBeNull();
    await expect(folder.write('vip', '../escape.svg', 'x')).rejects.toThrow(/Not a store media file/);
    await expect(folder.write('../x', 'a.svg', 'x')).rejects.toThrow(/Not a store media file/);
  });
});
