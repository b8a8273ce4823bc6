/**
 * Splits a bundled chunk's characters among the packages its source map names, so the bench can
 * say how much of each page's JavaScript is framework and how much is ours.
 */

export type Owner = 'framework' | 'libs' | 'ours';

const FRAMEWORK =
  /node_modules\/(react|react-dom|scheduler|astro|nanostores|@nanostores\/react|@astrojs\/[^/]+|use-sync-external-store)\//;

/** Who a source file of a map belongs to: React, Astro and nanostores are framework; other packages libs. */
export function ownerOf(source: string): Owner {
  if (FRAMEWORK.test(source)) return 'framework';
  if (source.includes('node_modules/')) return 'libs';
  // Bundler and Astro virtual modules (`\0astro:…`, `vite/…`) are runtime glue, not our code.
  if (source.startsWith('\0') || /(^|\/)(astro|vite|rolldown|\\0)[:/]/.test(source)) return 'framework';
  return 'ours';
}

const VLQ = new Map('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').map((c, i) => [c, i]));

function decodeSegment(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = VLQ.get(char);
    if (digit === undefined) break;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

export type SourceMapLike = {
  /** Entries may be null in maps that name no source for a segment. */
  sources: (string | null)[];
  mappings: string;
};

/** Characters of `code` per owner, following the map's segments (unmapped glue counts as ours). */
export function splitByOwner(code: string, map: SourceMapLike): Record<Owner, number> {
  const totals: Record<Owner, number> = { framework: 0, libs: 0, ours: 0 };
  const owners = map.sources.map((s) => ownerOf(s ?? ''));
  const lines = code.split('\n');
  const mappingLines = map.mappings.split(';');
  let sourceIndex = 0;
  for (let li = 0; li < lines.length; li++) {
    const lineLength = lines[li]!.length + 1;
    const segments = (mappingLines[li] ?? '').split(',').filter(Boolean);
    let column = 0;
    const spans: { column: number; owner: Owner }[] = [];
    for (const segment of segments) {
      const fields = decodeSegment(segment);
      column += fields[0] ?? 0;
      if (fields.length >= 4) {
        sourceIndex += fields[1]!;
        spans.push({ column, owner: owners[sourceIndex] ?? 'ours' });
      } else {
        spans.push({ column, owner: 'ours' });
      }
    }
    if (spans.length === 0) {
      totals.ours += lineLength;
      continue;
    }
    totals.ours += spans[0]!.column;
    for (let i = 0; i < spans.length; i++) {
      const end = i + 1 < spans.length ? spans[i + 1]!.column : lineLength;
      totals[spans[i]!.owner] += Math.max(0, end - spans[i]!.column);
    }
  }
  return totals;
}
