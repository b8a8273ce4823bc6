// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';

// Every page renders on demand; scripts/build.ts snapshots public stores' pages to static
// HTML through the same handler (docs/decisions/002-prerender-by-snapshot.md).
export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [react()],
  trailingSlash: 'ignore',
  outDir: process.env.DIST_DIR ?? './dist',
  cacheDir: process.env.ASTRO_CACHE_DIR ?? './node_modules/.astro',
  build: { format: 'directory' },
  server: { port: Number(process.env.PORT ?? 4321) },
  vite: {
    // `npm run dev` runs the API beside Astro's dev server and sets DEV_API_PROXY to it (scripts/dev.ts);
    // `npm start` serves /api from the same process instead (docs/decisions/141-dead-code-copies-and-dev-server.md).
    server: {
      ...(process.env.DEV_API_PROXY ? { proxy: { '/api': { target: process.env.DEV_API_PROXY } } } : {}),
      // Data, builds and bench output are no sources: a checkout with a few builds of a large catalog holds
      // hundreds of thousands of files, and watching them ran out of the system's file watchers (ENOSPC),
      // after which the dev server answered nothing.
      watch: { ignored: ['**/.data*/**', '**/builds/**', '**/dist*/**', '**/bench/tmp/**', '**/media/**'] },
    },
    plugins: [
      {
        // A build bundles React into the server with its production build chosen there, so nothing has to
        // set NODE_ENV before the built server is loaded (docs/decisions/160-one-request-path-typed-locals.md).
        // `astro dev` keeps React external and in development.
        name: 'react-production-on-the-server',
        config: (_, { command }) =>
          command === 'build'
            ? {
                define: { 'process.env.NODE_ENV': JSON.stringify('production') },
                // With every package that calls React's hooks, so the whole server holds one React.
                ssr: {
                  noExternal: [/^react($|\/)/, /^react-dom($|\/)/, '@nanostores/react', '@stripe/react-stripe-js'],
                },
              }
            : undefined,
      },
      {
        // Vite puts a preload helper (≈ 0.9 KB gzip) in front of every dynamic import, which would
        // cost the store front more than loading its store check on demand saves (5 KB budget).
        // Our lazily loaded chunks have no CSS or deep graphs to preload; the browser fetches their
        // imports itself. Failures still raise `vite:preloadError` (src/scripts/chunk-reload.ts).
        name: 'small-preload-helper',
        enforce: 'pre',
        // The helper ignores the list of files Vite would preload with each dynamic import: without
        // this, each lazily loaded chunk's imports are still named in the importer (the boot script),
        // bytes the store front's budget pays for nothing (docs/decisions/191-search-engine.md).
        configEnvironment: (name) =>
          name === 'client' ? { build: { modulePreload: { resolveDependencies: () => [] } } } : undefined,
        load(id) {
          if (id !== '\0vite/preload-helper.js') return undefined;
          return `export const __vitePreload = (load) => load().catch((error) => {
  const event = new Event('vite:preloadError', { cancelable: true });
  event.payload = error;
  window.dispatchEvent(event);
  if (!event.defaultPrevented) throw error;
});`;
        },
      },
    ],
    build: {
      // `npm run bench` builds with ASTRO_SOURCEMAP=hidden: `.map` files beside the chunks (no
      // sourceMappingURL comment, so browsers never fetch them) let it split each chunk's bytes
      // into framework and our code. Normal builds write none.
      sourcemap: process.env.ASTRO_SOURCEMAP === 'hidden' ? 'hidden' : false,
      rolldownOptions: {
        output: {
          // The modules every store page's boot script needs go in one chunk, not six small ones
          // (the icon loader too: the toaster and islands share its one cache of icons):
          // the store front and shop have a 5 KB gzip script budget (src/scripts/boot.ts). The spec §4
          // decision (store-loading.ts) is not among them: boot loads it only when it runs.
          codeSplitting: {
            groups: [
              {
                name: 'shell-core',
                test: /[\\/]src[\\/](lib[\\/](api-client[\\/](requester|cart)|contract[\\/](messages|shopper-tokens)|api-error|cookies|retry-policy|report|shell-data|icon-loader)|stores[\\/](cart-core|store))\.ts$|[\\/]nanostores[\\/]atom[\\/]/,
              },
            ],
          },
        },
      },
    },
  },
});
