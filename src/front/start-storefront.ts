import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { listPublicStoreSlugs } from '../server/catalog/public-stores.ts';
import { createApiRuntime } from '../server/runtime.ts';
import { demoOwnerSignInLink } from '../server/console/demo-owner.ts';
import { astroEntry, ensureAstroBuild } from './astro-build.ts';
import { BuildPointer } from './build-pointer.ts';
import {
  buildTimingHeader,
  createFrontListener,
  documentHeaders,
  type AstroHandler,
  type FrontLocals,
} from './front-server.ts';
import { snapshotPages } from './snapshot-pages.ts';
import { renderPage } from './page-render.ts';
import { writeSnapshot, type SnapshotResult } from './snapshot.ts';
import { MIN_COMPRESSED_BYTES, StaticFolder } from './static-files.ts';
import { PAGE_COMPRESSION } from './compression.ts';
import { readRebuildToken } from './rebuild-token.ts';
import { recycleSpare } from './recycled-folder.ts';
import { inProcessApiFetch } from './in-process-api.ts';
import { ApiMicrocache } from './api-microcache.ts';
import { SnapshotApiMemo } from './snapshot-api-memo.ts';
import { openMediaStorage } from '../server/media/open-media.ts';
import { ImageDerivatives } from './image-derivatives.ts';
import { loadConfig, publicSiteUrl } from '../server/config.ts';
import type { Publisher } from '../server/publishing/publishing.ts';
import type { Database } from '../server/db/schema.ts';
import { HELD_BUILD_CHANNEL, listenForLiveBuild, readLiveBuild } from '../server/publishing/live-build.ts';
import {
  type BuildHolders,
  databaseBuildHolders,
  FETCHING_INSTANCE,
  heldPayload,
} from '../server/publishing/build-holders.ts';
import { compareBuilds } from './build-changes.ts';
import { openBuildBucket } from './build-bucket.ts';
import { readManifest } from './build-manifest.ts';
import { rm } from 'node:fs/promises';
import { isBuildId, keptBuildIds } from '../server/publishing/publishing.ts';
import { newRecord, readRecord, recordChanges, recordFile, renderFingerprint } from './build-record.ts';
import { liveBuildReuse, recordedCatalog } from './incremental-build.ts';
import { changesSince, changesStart, pruneChanges } from '../server/publishing/catalog-changes.ts';

export type StorefrontOptions = {
  env?: NodeJS.ProcessEnv;
  /** Port to listen on; 0 picks a free one (builds). */
  port: number;
  host: string;
  /** Write a snapshot of every public store's pages before `ready` resolves. */
  snapshotOnStart: boolean;
  /** Render every page of that snapshot, reusing none of the live build's (`npm run rebuild -- --full`). */
  fullSnapshot?: boolean;
  /** Called as snapshot pages are written. */
  onProgress?: (done: number, total: number) => void;
  log?: (line: string) => void;
  /** Renders pages instead of the Astro build in DIST_DIR (tests of the front and the API without a build). */
  astroHandler?: AstroHandler;
  /**
   * What identifies `astroHandler`'s code in build records (docs/decisions/211-incremental-builds.md); without it,
   * every build with `astroHandler` renders every page.
   */
  astroHandlerVersion?: string;
};

export type Storefront = {
  url: string;
  server: Server;
  /** Renders a new snapshot beside the live one (only the pages a change touches, unless `full`) and switches to it. */
  rebuild(onProgress?: (done: number, total: number) => void, options?: { full: boolean }): Promise<SnapshotResult>;
  /** A new sign-in link of the demo data's console owner; null when the database is not the demo data. */
  demoSignInLink(): Promise<string | null>;
  /** The database the API runs on (tools, and tests that change the catalog under a build). */
  db: Kysely<Database>;
  close(): Promise<void>;
};

/**
 * Starts the whole product in this process: the API on its database, the Astro handler and the
 * front that routes between them and serves the snapshot build (design.md, "One process, one port").
 */
export async function startStorefront(options: StorefrontOptions): Promise<Storefront> {
  const given = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.log(line));
  // Every variable is checked once, before anything starts (a bad one stops here, named).
  const config = loadConfig(given);
  // Snapshots render on a loopback port but are served from the site: canonical, Open Graph and sitemap
  // URLs (and mailed links) need the public origin, which is where `npm start` serves unless told otherwise.
  // The API gets it in its own copy of the environment and renders in `locals.siteUrl`: nothing writes to
  // the process's environment.
  const siteUrl = publicSiteUrl(given, config, options.port);
  const env: NodeJS.ProcessEnv = { ...given, PUBLIC_SITE_URL: siteUrl };
  const distDir = path.resolve(config.DIST_DIR);
  const buildsDir = path.resolve(config.BUILDS_DIR);
  const folderOptions = { memoryCacheBytes: config.STATIC_MEMORY_CACHE_MB * 1024 * 1024 };

  if (!options.astroHandler) await ensureAstroBuild(distDir, log);
  const builds = new BuildPointer(buildsDir, folderOptions);
  const rebuildToken = await readRebuildToken(config.REBUILD_TOKEN, buildsDir);

  const memo = new SnapshotApiMemo();
  const microcache = new ApiMicrocache({ ttlMs: config.API_MICROCACHE_MS });
  let handler: AstroHandler | null = null;
  let url = '';
  /** Set once the server listens (the API's own address needs the port). */
  const publicEnv = {
    PUBLIC_API_BASE_URL: config.PUBLIC_API_BASE_URL,
    PUBLIC_GEOIP_URL: config.PUBLIC_GEOIP_URL,
    PUBLIC_STRIPE_PUBLISHABLE_KEY: config.PUBLIC_STRIPE_PUBLISHABLE_KEY,
  };
  let renderContext: Pick<FrontLocals, 'api' | 'siteUrl' | 'publicEnv'> = { siteUrl, publicEnv };
  /** The last snapshot this process wrote, for the start-up log line. */
  let lastSnapshot: SnapshotResult | null = null;
  const images = new ImageDerivatives(path.resolve(config.IMAGE_CACHE_DIR));
  // Builds go to the bucket before they may go live, and come from it to an instance that lacks one (ADR 212).
  const bucket = openBuildBucket(config);
  const fetching = new Map<string, Promise<void>>();
  /** This instance among those on one PostgreSQL, for the builds each holds (build-holders.ts). */
  const instanceId = randomBytes(6).toString('hex');
  let holders: BuildHolders | null = null;
  /** Whether build `id` is in BUILDS_DIR, after fetching it whole from the bucket when it is only there. */
  const ensureLocal = async (id: string): Promise<boolean> => {
    if (await builds.has(id)) return true;
    if (!bucket || !(await bucket.has(id))) return false;
    let fetched = fetching.get(id);
    if (!fetched) {
      fetched = bucket.fetch(id, buildsDir, builds.currentId).finally(() => fetching.delete(id));
      fetching.set(id, fetched);
    }
    await fetched;
    return true;
  };

  // The code and settings pages are rendered with: a build records it, and only a build of the same
  // fingerprint lends its pages to the next (docs/decisions/211-incremental-builds.md).
  const fingerprint = renderFingerprint(
    options.astroHandler ? `stand-in:${options.astroHandlerVersion ?? ''}` : { distDir },
    // How files are written is part of it: a build that compresses other files must not lend its own.
    {
      siteUrl,
      publicEnv,
      api: config.API_INTERNAL_URL ?? null,
      compressedFrom: MIN_COMPRESSED_BYTES,
      compression: PAGE_COMPRESSION,
    },
  );
  fingerprint.catch(() => undefined); // awaited by the first build
  // A stand-in for the Astro build (tests) may show what no API answer says; only one naming its version
  // promises its pages are a function of their answers, as the real pages are.
  const pagesAreTheirInputs = !options.astroHandler || options.astroHandlerVersion !== undefined;

  // What publishing renders and switches (docs/decisions/202-publishing-builds.md): every public store's
  // pages, through this process's own front, written beside the live build; pages whose inputs did not
  // change since the live build are linked from it (docs/decisions/211-incremental-builds.md).
  const publisher: Publisher = {
    token: rebuildToken,
    async render(id, onProgress, { full }) {
      try {
        // The catalog may have changed (that is why we rebuild): the snapshot and shoppers' calls see it now.
        microcache.clear();
        runtime.stores.clear();
        runtime.listings.clear();
        const api = renderContext.api;
        if (!api) throw new Error('The storefront is not listening yet');
        // Before anything is read: every write this build's reads may miss is stamped at least this (ADR 225).
        const start = await changesStart(runtime.db);
        const slugs = await listPublicStoreSlugs(runtime.db);
        const live = builds.currentId;
        const record = newRecord(await fingerprint, { changesStart: start, stores: slugs });
        // The live build is never pruned while it is live or the one before it (ADR 208); a page whose
        // files went meanwhile is rendered instead (snapshot.ts).
        const liveHere = live !== null && (await builds.has(live));
        const liveRecord = liveHere ? await readRecord(buildsDir, live) : null;
        const reusable = !full && pagesAreTheirInputs && liveRecord?.fingerprint === record.fingerprint;
        // What was written since the live build began, when only products' rows were: then its pages are this
        // build's, and the answers of products nothing wrote are its own (docs/decisions/225-publish-from-catalog-changes.md).
        const written =
          reusable && liveRecord.changesStart !== null && liveRecord.stores.join('\0') === slugs.join('\0')
            ? await changesSince(runtime.db, liveRecord.changesStart)
            : null;
        const inputs = memo.begin({ seedLists: !written });
        const reuse = reusable
          ? liveBuildReuse(
              path.join(buildsDir, live!),
              liveRecord,
              async (key) => {
                const known = inputs.answer(key) ?? memo.keptHash(key);
                if (known !== undefined) return known;
                const answer = await api.fetch(new URL(key, api.baseUrl), { headers: liveRecord.requestHeaders });
                await answer.arrayBuffer();
                return inputs.answer(key) ?? `unread:${answer.status}`;
              },
              written ?? undefined,
            )
          : undefined;
        // An incremental build patches the spare, a pruned build, where there is one (ADR 220).
        const recycled =
          reuse && liveRecord ? await recycleSpare(builds, id, { root: reuse.from, record: liveRecord }) : undefined;
        const snapshot = await writeSnapshot({
          id,
          baseUrl: url,
          render: (pagePath) =>
            renderPage(handler!, pagePath, {
              host: new URL(url).host,
              locals: { ...renderContext, customDomain: null, prerender: true },
            }),
          buildsDir,
          // Listed while the snapshot makes the live build's folders.
          pages: snapshotPages(api, slugs, written && liveRecord ? recordedCatalog(liveRecord) : undefined),
          onProgress,
          inputs,
          record,
          ...(reuse ? { reuse } : {}),
          ...(recycled ? { recycled } : {}),
          // The answers are hashed in `inputs`: their bodies are not needed past the renders.
          onRendered: () => memo.end(),
          site: {
            clientDir: path.join(distDir, 'client'),
            images,
            documentHeaders: documentHeaders(publicEnv),
            previousRoot: live && path.join(buildsDir, live),
            // A static host names the build in its pages' answers as the front does (ADR 211).
            buildHeaders: (_url, type) => (type.startsWith('text/html') ? buildTimingHeader(id) : {}),
          },
        });
        lastSnapshot = { ...snapshot, found: written ? 'changes' : 'listed' };
        // No build older than the live one is a base again (a rollback to one lists its catalog).
        if (liveRecord?.changesStart) await pruneChanges(runtime.db, liveRecord.changesStart);
        if (bucket) {
          const root = path.join(buildsDir, id);
          // A build the bucket has not got whole never goes live: it fails here (ADR 212).
          await bucket.upload(root, (await readManifest(root))!).catch(async (error: unknown) => {
            await rm(root, { recursive: true, force: true });
            await rm(recordFile(buildsDir, id), { force: true });
            throw error;
          });
        }
        // Counted from the records. Only a live build written before them has its files read and hashed;
        // with no live build here every page is added, and reading a build's files back to say so took a
        // 10,000-product build 10 s (docs/performance.md).
        const changes = liveRecord
          ? recordChanges(liveRecord, record)
          : liveHere
            ? await compareBuilds(buildsDir, live, id)
            : recordChanges(newRecord(record.fingerprint), record);
        return { pages: lastSnapshot.pages, changes };
      } finally {
        memo.end();
      }
    },
    has: async (id) => (await builds.has(id)) || Boolean(await bucket?.has(id)),
    async switchTo(id, version) {
      await ensureLocal(id);
      await builds.switchTo(id, version);
    },
    ...(config.DATABASE_URL ? { awaitHeld: (id: string) => holders!.awaitAll(id) } : {}),
    async prune(keep) {
      await builds.prune(keep);
      // The bucket keeps what BUILDS_DIR keeps (ADR 212); a bucket that refuses now is pruned at the next switch.
      await bucket?.prune(keep).catch((error: unknown) => {
        runtime.logger.error({ err: error }, 'old builds could not be deleted from the builds bucket');
      });
    },
  };
  const runtime = await createApiRuntime(env, { publisher });
  const publishing = runtime.publishing!;
  if (config.DATABASE_URL)
    holders = databaseBuildHolders(runtime.db, {
      self: instanceId,
      waitMs: config.BUILDS_FETCH_WAIT_MS,
      logger: runtime.logger,
    });

  // The live build is the database's (docs/decisions/208-preview-and-live-build.md); `current` only
  // before any build was recorded as live.
  // An instance with a BUILDS_DIR of its own fetches the build from the bucket first, and serves it only
  // once it is there whole (ADR 212).
  const showLive = async () => {
    const live = await readLiveBuild(runtime.db);
    const fetched = live && bucket && !(await builds.has(live.id));
    if (live && (await ensureLocal(live.id))) {
      builds.show(live.id, live.version);
      // Nobody else prunes a BUILDS_DIR of this instance's own: keep what the database keeps.
      if (fetched) await builds.prune(await keptBuildIds(runtime.db));
    } else if (live)
      runtime.logger.error(
        { build: live.id },
        'the live build is not in BUILDS_DIR and S3_BUILDS_BUCKET is not set: share BUILDS_DIR between instances',
      );
    return live;
  };
  if (!(await showLive())) await builds.showLinked();
  /**
   * A build another instance made ready, fetched into this instance's own BUILDS_DIR at once, so that going
   * live or a preview finds it here rather than waiting for the fetch (ADR 212).
   */
  const prefetch = async (id: string) => {
    // The id comes from a notification: only one shaped like a build id ever names a folder.
    if (!bucket || !isBuildId(id)) return;
    if (!(await builds.has(id))) {
      if (!(await ensureLocal(id))) return;
      await builds.prune(await keptBuildIds(runtime.db));
    }
    // Going live waits for this (build-holders.ts).
    await sql`select pg_notify(${HELD_BUILD_CHANNEL}, ${heldPayload(instanceId, id)})`.execute(runtime.db);
  };
  // Instances on one PostgreSQL serve the build any of them switched to (sharing BUILDS_DIR, or each
  // fetching it from the builds bucket).
  const listening = config.DATABASE_URL
    ? listenForLiveBuild(
        config.DATABASE_URL,
        {
          // Named so that going live finds the instances that fetch builds (build-holders.ts).
          applicationName: bucket ? `${FETCHING_INSTANCE}${instanceId}` : 'storefront',
          onHeld: (payload) => holders?.heard(payload),
          onSwitch: () =>
            void showLive().catch((error: unknown) => runtime.logger.error({ err: error }, 'live build not read')),
          onReady: (id) =>
            void prefetch(id).catch((error: unknown) =>
              runtime.logger.warn(
                { err: error, build: id },
                'ready build not fetched; it is fetched when it goes live',
              ),
            ),
        },
        runtime.logger,
      )
    : null;
  if (listening)
    builds.followDatabase(async () => {
      await showLive().catch(() => null);
    });
  try {
    await listening?.ready;
  } catch (error) {
    await runtime.close();
    throw error;
  }

  /** A build of this process's own (start-up, `npm run rebuild` without a server), recorded as the command line's. */
  async function rebuild(
    onProgress?: (done: number, total: number) => void,
    rebuildOptions: { full: boolean } = { full: false },
  ): Promise<SnapshotResult> {
    const build = await publishing.publish(
      { requestedBy: 'cli', storeId: null },
      onProgress && ((progress) => onProgress(progress.done, progress.total)),
      rebuildOptions,
    );
    return lastSnapshot?.id === build.id
      ? lastSnapshot
      : {
          id: build.id,
          pages: build.pages ?? 0,
          images: 0,
          skipped: [],
          reused: 0,
          durationMs: build.duration_ms ?? 0,
        };
  }

  const listener = createFrontListener({
    // Hono's fetch with the Node bindings the front passes: the API must see each caller's address.
    apiFetch: runtime.app.fetch,
    astroHandler: (req, res, next, locals) => {
      if (!handler) throw new Error('The Astro handler is not loaded yet');
      return handler(req, res, next, locals);
    },
    assets: new StaticFolder(path.join(distDir, 'client'), folderOptions),
    builds,
    domains: { platformDomain: config.PLATFORM_DOMAIN, shopDomain: config.SHOP_DOMAIN },
    microcache,
    media: openMediaStorage(config),
    images,
    renderContext: () => renderContext,
    publicEnv,
  });

  const server = createServer((req, res) => {
    listener(req, res).catch((error: unknown) => {
      console.error(new Error(`Unhandled error for ${req.method} ${req.url}`, { cause: error }));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error');
    });
  });
  // Keep-alive beyond common load balancers' 60 s idle timeout, so they never reuse a closed socket.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  url = `http://${options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host}:${address.port}`;

  // Renders call the API at API_INTERNAL_URL, else this process's own; calls to its own API skip the
  // loopback socket (an external API_INTERNAL_URL is called over the network).
  renderContext = {
    siteUrl,
    publicEnv,
    api: {
      baseUrl: config.API_INTERNAL_URL ?? `http://127.0.0.1:${address.port}/api/`,
      fetch: inProcessApiFetch(
        [`http://127.0.0.1:${address.port}/api/`, `http://localhost:${address.port}/api/`],
        memo.wrap(runtime.app.fetch),
        { known: (url, headers, bindings) => memo.kept(url, headers, bindings) },
      ),
    },
  };
  handler = options.astroHandler ?? (await importAstroEntry(astroEntry(distDir))).handler;

  if (options.snapshotOnStart) {
    const result = await rebuild(options.onProgress, { full: options.fullSnapshot ?? false });
    log(
      `Snapshot ${result.id}: ${result.pages} pages (${result.reused} reused from the live build), ${result.images} image derivatives in ${result.durationMs} ms`,
    );
  }

  return {
    url,
    server,
    rebuild,
    demoSignInLink: () => demoOwnerSignInLink(runtime.db, siteUrl, new Date()),
    db: runtime.db,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      // A build under way finishes (or fails) before the database closes, so its record is not left building.
      await publishing.idle();
      await listening?.stop();
      await Promise.allSettled(fetching.values());
      await builds.deleted();
      bucket?.close();
      await runtime.close();
    },
  };
}

/**
 * Imports the built Astro server. React is bundled into it with its production build chosen at build
 * time (astro.config.mjs), so whatever NODE_ENV says — the API reads it from its own config — the pages
 * render with production React.
 */
async function importAstroEntry(file: string): Promise<{ handler: AstroHandler }> {
  return (await import(pathToFileURL(file).href)) as { handler: AstroHandler };
}
