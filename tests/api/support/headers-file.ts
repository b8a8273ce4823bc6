/**
 * Reads a `_headers` file as Cloudflare Pages does (docs/decisions/212-builds-as-static-artifacts.md): every
 * rule whose pattern matches the URL applies, and a header two rules set is joined with a comma.
 */
import { patternRegExp } from '../../../src/front/build-headers.ts';

export function headersFor(text: string, url: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let applies = false;
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      applies = patternRegExp(line.trim()).test(url);
      continue;
    }
    if (!applies) continue;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}
