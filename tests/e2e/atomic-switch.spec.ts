/**
 * Shoppers' pages switch builds atomically (docs/decisions/208-preview-and-live-build.md, 213-publishing-for-
 * editors-and-shoppers.md): while two builds go live and roll back, one after the other, a shopper keeps
 * loading pages, each page's payload for the build the page names, and every script and stylesheet the page
 * references. Each page and payload must be the very file of that build (its ETag is the file's size and
 * time), and no referenced asset may be missing. The build live before is put back at the end.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4399);
const buildsDir = path.resolve(process.env.BUILDS_DIR ?? `.data-e2e-${port}-builds`);
const PAGES = ['/acme', '/acme/shop'];
/** Go-lives and rollbacks while the shopper reads. */
const SWITCHES = 12;

/** The build a page came from: the answer's `Server-Timing: build;desc="<id>"` (docs/decisions/211-incremental-builds.md). */
function buildIdOf(response: APIResponse): string | null {
  return /(?:^|,)\s*build;desc="?([^",;]+)"?/.exec(response.headers()['server-timing'] ?? '')?.[1] ?? null;
}

/** The ETag the front gives a file of a build's folder: its size and time. */
async function etagOf(build: string, file: string): Promise<string> {
  const s = await stat(path.join(buildsDir, build, file));
  return `"${s.size.toString(36)}-${Math.floor(s.mtimeMs).toString(36)}"`;
}

/** The scripts, stylesheets and module preloads a page references on this site. */
function assetsOf(html: string): string[] {
  const urls = [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="(\/_astro\/[^"]+)"/g)].map((m) => m[1]!);
  return [...new Set(urls)];
}

async function bearer(): Promise<Record<string, string>> {
  return { authorization: `Bearer ${(await readFile(path.join(buildsDir, '.rebuild-token'), 'utf8')).trim()}` };
}

async function liveBuild(request: APIRequestContext): Promise<string> {
  return ((await (await request.get(`/builds/latest.json?${Date.now()}`)).json()) as { id: string }).id;
}

test('a shopper loading pages, payloads and assets while builds go live and roll back always gets one build’s files, and every asset', async ({
  request,
}) => {
  test.setTimeout(300_000);
  const headers = await bearer();
  const before = await liveBuild(request);
  const started = await request.post('/api/admin/builds', { headers, data: { go_live: false } });
  expect(started.status()).toBe(202);
  const next = ((await started.json()) as { data: { id: string } }).data.id;
  const events = await request.get(`/api/admin/builds/${next}/events`, { headers, timeout: 240_000 });
  expect(await events.text()).toMatch(/^event: done$/m);

  let switching = true;
  const seen = new Set<string>();
  const problems: string[] = [];
  let loads = 0;
  let assets = 0;
  const shopper = async () => {
    while (switching) {
      for (const page of PAGES) {
        const answer = await request.get(page);
        const html = await answer.text();
        const build = buildIdOf(answer);
        if (answer.status() !== 200 || !build) {
          problems.push(`${page}: ${answer.status()}, build ${build}`);
          continue;
        }
        seen.add(build);
        loads++;
        const file = `${page.slice(1)}/index.html`;
        if (answer.headers().etag !== (await etagOf(build, file))) problems.push(`${page}: not build ${build}’s page`);
        const payload = await request.get(`${page}/_payload.json?${build}`);
        if (payload.status() !== 200) problems.push(`${page} payload of ${build}: ${payload.status()}`);
        else if (payload.headers().etag !== (await etagOf(build, `${page.slice(1)}/_payload.json`)))
          problems.push(`${page}: a payload not of build ${build}`);
        for (const asset of assetsOf(html)) {
          assets++;
          const status = (await request.get(asset)).status();
          if (status !== 200) problems.push(`${page} of ${build}: ${asset} answered ${status}`);
        }
      }
    }
  };
  const switcher = async () => {
    try {
      for (let i = 0; i < SWITCHES; i++) {
        const target = i % 2 === 0 ? next : before;
        const switched = await request.post(`/api/admin/builds/${target}/live`, { headers });
        expect(switched.status()).toBe(200);
        // Let the shopper load a page or two of this build before the next switch.
        const loaded = loads;
        await expect.poll(() => loads, { timeout: 30_000 }).toBeGreaterThan(loaded + 1);
      }
    } finally {
      switching = false;
    }
  };
  await Promise.all([shopper(), switcher()]);

  expect(problems).toEqual([]);
  expect(assets).toBeGreaterThan(0);
  expect([...seen].sort()).toEqual([before, next].sort());
  expect(await liveBuild(request)).toBe(before);
});
