import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeEach, expect, test } from 'vitest';
import { ImageDerivatives } from '../../../src/front/image-derivatives.ts';

const SQUARE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"><rect width="800" height="800" fill="#c4493e"/></svg>';

let dir: string;
let images: ImageDerivatives;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'derivatives-'));
  images = new ImageDerivatives(path.join(dir, 'cache'));
});

test('an SVG is drawn at the width asked for, in the format asked for', async () => {
  await writeFile(path.join(dir, 'tee.svg'), SQUARE);
  const file = await images.derive(path.join(dir, 'tee.svg'), { width: 320, format: 'avif' });
  const meta = await sharp(file!).metadata();
  expect(meta.width).toBe(320);
  expect(meta.height).toBe(320);
  expect(meta.format).toBe('heif');
  const webp = await images.derive(path.join(dir, 'tee.svg'), { width: 960, format: 'webp' });
  expect((await sharp(webp!).metadata()).width).toBe(960);
});

test('a derivative is made once: the same request finds the kept file, also when asked twice at once', async () => {
  await writeFile(path.join(dir, 'tee.svg'), SQUARE);
  const source = path.join(dir, 'tee.svg');
  const [a, b] = await Promise.all([
    images.derive(source, { width: 160, format: 'webp' }),
    images.derive(source, { width: 160, format: 'webp' }),
  ]);
  expect(a).toBe(b);
  expect(await images.derive(source, { width: 160, format: 'webp' })).toBe(a);
  const kept = (await readdir(path.join(dir, 'cache'), { recursive: true })).filter((name) => name.endsWith('.webp'));
  expect(kept).toHaveLength(1);
});

test('a replaced source gets a new derivative', async () => {
  const source = path.join(dir, 'tee.svg');
  await writeFile(source, SQUARE);
  const before = await images.derive(source, { width: 160, format: 'webp' });
  await writeFile(source, SQUARE.replace('width="800" height="800"><rect', 'width="400" height="800"><rect'));
  const after = await images.derive(source, { width: 160, format: 'webp' });
  expect(after).not.toBe(before);
  expect((await sharp(after!).metadata()).height).toBe(320);
});

test('the same picture at another path, or copied anew, shares its derivative', async () => {
  await writeFile(path.join(dir, 'tee.svg'), SQUARE);
  const first = await images.derive(path.join(dir, 'tee.svg'), { width: 160, format: 'avif' });
  await writeFile(path.join(dir, 'copy.svg'), SQUARE);
  expect(await images.derive(path.join(dir, 'copy.svg'), { width: 160, format: 'avif' })).toBe(first);
});

test('a raster source is never enlarged', async () => {
  const source = path.join(dir, 'small.png');
  await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3f6b4b' } })
    .png()
    .toFile(source);
  const file = await images.derive(source, { width: 640, format: 'webp' });
  expect((await sharp(file!).metadata()).width).toBe(200);
});

test('a file that is not an image, or is missing, has no derivative (the front sends the original)', async () => {
  await writeFile(path.join(dir, 'broken.png'), 'not a png');
  expect(await images.derive(path.join(dir, 'broken.png'), { width: 320, format: 'avif' })).toBeNull();
  expect(await images.derive(path.join(dir, 'missing.svg'), { width: 320, format: 'avif' })).toBeNull();
});
