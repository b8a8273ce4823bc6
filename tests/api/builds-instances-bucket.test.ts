/**
 * Several `npm start` instances on one PostgreSQL, each with a BUILDS_DIR of its own and one builds bucket
 * (docs/decisions/212-builds-as-static-artifacts.md): an instance told of a build it has not got — ready on
 * another instance, or live — fetches it from the bucket, checks it against its manifest and only then
 * serves it — within a second of the switch, and never a page of one build with another's payload.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { manifestObjects, sha256Of, type BuildManifest } from '../../src/front/build-manifest.ts';
import { startFakeS3, type FakeS3 } from './support/fake-s3.ts';
import type { TwoInstances } from './support/two-instances.ts';
import {
  buildDone,
  liveOn,
  readyBuild,
  startBuild,
  startTwoInstances,
  switchLive,
  viewsUntilLive,
} from './support/two-instances.ts';

describe.runIf(process.env.DATABASE_URL)('two storefront instances with their own BUILDS_DIR and one bucket', () => {
  let s3: FakeS3;
  let secondBuilds: string;
  let instances: TwoInstances;

  beforeAll(async () => {
    s3 = await startFakeS3('instances-key');
    secondBuilds = await mkdtemp(path.join(tmpdir(), 'builds-bucket-second-'));
    instances = await startTwoInstances({
      name: 'builds-bucket',
      env: {
        S3_BUILDS_BUCKET: 'site',
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: 'instances-key',
        S3_SECRET_ACCESS_KEY: 'instances-secret',
        S3_FORCE_PATH_STYLE: 'true',
      },
      secondEnv: { BUILDS_DIR: secondBuilds },
    });
  }, 120_000);
  afterAll(async () => {
    await instances?.close();
    await s3?.close();
    if (secondBuilds) await rm(secondBuilds, { recursive: true, force: true });
  });

  test('the second instance fetched the live build into its own folder, every file as the manifest says', async () => {
    const { first, second } = instances;
    const live = await liveOn(first);
    expect(await liveOn(second)).toBe(live);
    expect(secondBuilds).not.toBe(first.env.BUILDS_DIR);
    const root = path.join(secondBuilds, live);
    const manifest = JSON.parse(await readFile(path.join(root, '_manifest.json'), 'utf8')) as BuildManifest;
    for (const object of manifestObjects(manifest))
      expect(await sha256Of(path.join(root, object.path)), object.path).toBe(object.digest.sha256);
  });

  test('a build ready on one instance is fetched by the other before it goes live, and served there within a second of the switch, never a page of one build with another’s payload', async () => {
    const { first, second } = instances;
    const before = await liveOn(first);
    const next = await readyBuild(first);
    // Fetched whole (its manifest is renamed into place last) while the other build stays live.
    await expect
      .poll(async () => (await stat(path.join(secondBuilds, next, '_manifest.json')).catch(() => null))?.isFile(), {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await liveOn(second)).toBe(before);

    const switchedAt = await switchLive(first, next);
    expect(await liveOn(first)).toBe(next);
    const views = await viewsUntilLive(second, next, switchedAt, [second]);
    expect(views.every((view) => view.payloadOfSameBuild)).toBe(true);
    expect(views.at(-1)!.build).toBe(next);
    expect((await stat(path.join(secondBuilds, next, '_manifest.json'))).isFile()).toBe(true);

    // Rolling back from the second instance is heard by the first, which has that build already.
    const rolledAt = await switchLive(second, before);
    await viewsUntilLive(first, before, rolledAt);
  });

  test('a build published straight to live goes live once the other instance holds it, and is served there within a second of the switch', async () => {
    const { first, second } = instances;
    const before = await liveOn(first);
    const release = s3.holdGets();
    let id: string;
    try {
      id = await startBuild(first, true);
      // The second instance fetches the build once it is ready, and the bucket keeps it waiting ...
      await expect.poll(() => s3.heldGets, { timeout: 60_000 }).toBeGreaterThan(0);
      // ... so going live waits too: both still serve the old build.
      expect(await liveOn(first)).toBe(before);
      expect(await liveOn(second)).toBe(before);
    } finally {
      release();
    }
    await buildDone(first, id);
    const switchedAt = performance.now();
    expect(await liveOn(first)).toBe(id);
    const views = await viewsUntilLive(second, id, switchedAt, [second]);
    expect(views.every((view) => view.payloadOfSameBuild)).toBe(true);
  });
});
