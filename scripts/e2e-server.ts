/**
 * The server Playwright starts: `npm start`'s code on a throwaway database and build folder,
 * so every end-to-end run begins from the demo data.
 */
import { rm } from 'node:fs/promises';

const dataDir = process.env.DATA_DIR ?? '.data-e2e';
if (!dataDir.startsWith('.data-'))
  throw new Error(`Refusing to wipe DATA_DIR=${dataDir}: end-to-end data folders start with ".data-"`);
process.env.BUILDS_DIR ??= `${dataDir}-builds`;
await rm(dataDir, { recursive: true, force: true });
await rm(process.env.BUILDS_DIR, { recursive: true, force: true });
process.env.HOST ??= '127.0.0.1';
await import('./start.ts');
