import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { COMPRESSIBLE } from './static-files.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Writes a file and, when worth it, its `.br` and `.gz` siblings for the front to send as they are.
 * Brotli quality: 11 for assets (few, served many times), lower for pages so large catalogs build fast.
 */
export async function writeCompressed(file: string, body: Buffer | string, brotliQuality = 5): Promise<void> {
  const data = typeof body === 'string' ? Buffer.from(body) : body;
  await mkdir(path.dirname(file), { recursive: true });
  const writes = [writeFile(file, data)];
  if (COMPRESSIBLE.has(path.extname(file)) && data.length > 512) {
    writes.push(brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality } }).then((b) => writeFile(`${file}.br`, b)));
    writes.push(gz(data, { level: brotliQuality >= 11 ? 9 : 7 }).then((b) => writeFile(`${file}.gz`, b)));
  }
  await Promise.all(writes);
}
