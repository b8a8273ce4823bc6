/**
 * The server Playwright starts: `npm start`'s code on a throwaway database and build folder,
 * so every end-to-end run begins from the demo data.
 */
import { cp, rm } from 'node:fs/promises';

const dataDir = process.env.DATA_DIR ?? '.data-e2e';
if (!dataDir.startsWith('.data-'))
  throw new Error(`Refusing to wipe DATA_DIR=${dataDir}: end-to-end data folders start with ".data-"`);
process.env.BUILDS_DIR ??= `${dataDir}-builds`;
await rm(dataDir, { recursive: true, force: true });
await rm(process.env.BUILDS_DIR, { recursive: true, force: true });
// A copy of the stores' media (the demo's restricted images): the console's uploads land there, not in the repository.
process.env.MEDIA_DIR ??= `${dataDir}-media`;
await rm(process.env.MEDIA_DIR, { recursive: true, force: true });
await cp('media', process.env.MEDIA_DIR, { recursive: true });
process.env.HOST ??= '127.0.0.1';
await import('./start.ts');
