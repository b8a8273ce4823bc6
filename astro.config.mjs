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
    build: {
      // `npm run bench` builds with ASTRO_SOURCEMAP=hidden: `.map` files beside the chunks (no
      // sourceMappingURL comment, so browsers never fetch them) let it split each chunk's bytes
      // into framework and our code. Normal builds write none.
      sourcemap: process.env.ASTRO_SOURCEMAP === 'hidden' ? 'hidden' : false,
      rolldownOptions: {
        output: {
          // The modules every store page's boot script needs go in one chunk, not six small ones:
          // the store front and shop have a 5 KB gzip script budget (src/scripts/boot.ts).
          codeSplitting: {
            groups: [
              {
                name: 'shell-core',
                test: /[\\/]src[\\/](lib[\\/](api-request|api-error|api-types|cookies|retry-policy|messages|browser-request|report|shell-data|store-loading)|stores[\\/](cart-core|store|loading))\.ts$|[\\/]nanostores[\\/]atom[\\/]/,
              },
            ],
          },
        },
      },
    },
  },
});
