import { createReadStream } from 'node:fs';
import {
  idUsedBefore,
  invalidCatalog,
  MAX_CATALOG_ISSUES,
  parseCatalog,
  parseCatalogHead,
  parseCatalogProduct,
  type CatalogHead,
  type CatalogProduct,
} from './catalog-format.ts';
import { jsonTopLevel, JsonStreamError } from './json-top-level.ts';

/** A catalog file checked whole, whose products are read from the file again, one at a time, as they are written. */
export type CatalogFile = {
  head: CatalogHead;
  productCount: number;
  products(): AsyncGenerator<CatalogProduct>;
};

const STREAMED = 'products';

async function* pieces(file: string) {
  try {
    yield* jsonTopLevel(createReadStream(file), STREAMED);
  } catch (error) {
    if (error instanceof JsonStreamError) throw new Error(`${file}: cannot read JSON (${error.message})`);
    throw error;
  }
}

function parsed(file: string, json: string, what: string): unknown {
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new Error(`${file}: cannot read JSON in ${what} (${(error as Error).message})`);
  }
}

/**
 * Reads a catalog file (docs/catalog-format.md) without holding its products in memory
 * (docs/decisions/214-scale-and-contention.md): a first pass checks every product on its own and keeps
 * only their ids, then the rest of the catalog with them; `products()` reads the file again for the import.
 * A bad catalog is refused, naming its first bad fields, before anything is written.
 */
export async function readCatalogFile(file: string): Promise<CatalogFile> {
  const rest: Record<string, unknown> = {};
  const ids = new Set<string>();
  const issues: { path: PropertyKey[]; message: string }[] = [];
  let count = 0;
  for await (const piece of pieces(file)) {
    if (!piece.element) {
      rest[piece.key] = parsed(file, piece.json, piece.key);
      continue;
    }
    const at = [STREAMED, count++];
    const checked = parseCatalogProduct(parsed(file, piece.json, at.join('.')), at);
    const issue = 'issues' in checked ? null : idUsedBefore(ids, checked.product.id, 'product', at);
    const found = 'issues' in checked ? checked.issues : issue ? [issue] : [];
    if (issues.length < MAX_CATALOG_ISSUES) issues.push(...found);
  }
  // Products that are not an array: the whole catalog's schema says what is wrong.
  if (STREAMED in rest) parseCatalog(rest);
  if (issues.length) throw invalidCatalog(issues);
  return {
    head: parseCatalogHead(rest, ids),
    productCount: count,
    async *products() {
      let i = 0;
      for await (const piece of pieces(file)) {
        if (!piece.element) continue;
        const at = [STREAMED, i++];
        const checked = parseCatalogProduct(parsed(file, piece.json, at.join('.')), at);
        // The file changed since it was checked: nothing is committed (the import is one transaction).
        if ('issues' in checked) throw invalidCatalog(checked.issues);
        yield checked.product;
      }
    },
  };
}
