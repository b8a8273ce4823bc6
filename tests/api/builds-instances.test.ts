/**
 * Several `npm start` instances on one PostgreSQL (docs/decisions/208-preview-and-live-build.md): the live
 * build is the database's, a switch made on one instance is served by the other within a second
 * (LISTEN/NOTIFY; the builds folder is shared), and a page of one build never gets another build's payload.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TwoInstances } from './support/two-instances.ts';
import {
  liveOn,
  payloadEtag,
  readyBuild,
  startTwoInstances,
  switchLive,
  viewsUntilLive,
} from './support/two-instances.ts';

describe.runIf(process.env.DATABASE_URL)('two storefront instances on one PostgreSQL', () => {
  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await startTwoInstances({ name: 'builds-instances' });
  }, 120_000);
  afterAll(async () => {
    await instances?.close();
  });

  test('both serve the live build the database names', async () => {
    const { first, second } = instances;
    const live = await liveOn(first);
    expect(await liveOn(second)).toBe(live);
  });

  test('a switch on one instance is served by the other within a second, never a page of one build with another’s payload', async () => {
    const { first, second } = instances;
    const before = await liveOn(first);
    const next = await readyBuild(first);
    expect(await liveOn(second)).toBe(before);

    const switchedAt = await switchLive(first, next);
    expect(await liveOn(first)).toBe(next);
    const views = await viewsUntilLive(second, next, switchedAt, [second, first]);
    expect(views.every((view) => view.payloadOfSameBuild)).toBe(true);
    expect(views.at(-1)!.build).toBe(next);

    // A page of the build before, kept open across the switch, still gets its own payload from either instance.
    for (const instance of [first, second]) {
      const old = await fetch(`${instance.storefront.url}/acme/shop/_payload.json?${before}`);
      expect(old.headers.get('etag')).toBe(await payloadEtag(instance, before));
    }

    // Rolling back from the second instance is heard by the first.
    const rolledAt = await switchLive(second, before);
    await viewsUntilLive(first, before, rolledAt);
  });
});
