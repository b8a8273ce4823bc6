/**
 * The HTTP headers each file of a build is sent with, and the `_headers` file (Cloudflare Pages / Netlify
 * syntax) that tells a static host the same (docs/decisions/212-builds-as-static-artifacts.md). The values
 * come from the front's own functions (`cacheControlFor`, `fileHeaders`, the media policy), so `npm start`
 * and a static host answer a file alike.
 */
import { originalOfDerivativeFile } from '../lib/responsive-image.ts';
import { parseMediaUrl } from '../server/media/media-folder.ts';
import { fileHeaders } from './front-server.ts';
import { PUBLIC_MEDIA_CACHE_CONTROL } from './media-answers.ts';
import { cacheControlFor } from './static-files.ts';

export type HeaderSet = Record<string, string>;

/** Headers a build's own, beside those of each file: e.g. one naming the build, added by whoever writes it. */
export type BuildHeaders = (urlPath: string, type: string) => HeaderSet;

/**
 * What the front sends with a file of a build at `urlPath` (besides its type, ETag, length and encoding).
 * A public store's media (and their derivatives' files) keep the media answers' policy.
 */
export function buildFileHeaders(urlPath: string, type: string, documentHeaders: HeaderSet): HeaderSet {
  // A derivative is answered with its original's policy (image-derivatives.ts `sendDerivative`).
  const answeredAs = originalOfDerivativeFile(urlPath) ?? urlPath;
  return {
    ...fileHeaders(documentHeaders)({ type }),
    'cache-control': parseMediaUrl(answeredAs) ? PUBLIC_MEDIA_CACHE_CONTROL : cacheControlFor(answeredAs),
  };
}

/** The URL paths a static host answers a build file at: a page's folder with and without its slash. */
export function urlPathsOf(file: string): string[] {
  if (file === 'index.html') return ['/', '/index.html'];
  if (file.endsWith('/index.html')) {
    const folder = `/${file.slice(0, -'/index.html'.length)}`;
    return [folder, `${folder}/`, `/${file}`];
  }
  return [`/${file}`];
}

/** A rule's URL pattern as a regular expression: `*` any characters, `:name` one path segment. */
export function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split(/(\*|:[A-Za-z]\w*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** What every URL a pattern matches starts with: the pattern up to its first `*` or placeholder. */
function literalPrefix(pattern: string): string {
  return pattern.split(/\*|:[A-Za-z]/, 1)[0]!;
}

/**
 * The positions in `sorted` of the URLs that start with `prefix`, found by binary search since they are one
 * run of it: a build tries a pattern per folder, and scanning every URL for each made `_headers` quadratic
 * in the pages.
 */
function startingWith(sorted: string[], prefix: string): { start: number; end: number } {
  const firstAtLeast = (bound: string, from: number) => {
    let low = from;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]! < bound) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const start = firstAtLeast(prefix, 0);
  // Every URL starting with `prefix` sorts below `prefix` followed by the highest UTF-16 unit.
  return { start, end: firstAtLeast(`${prefix}\uffff`, start) };
}

/**
 * The patterns a rule for a URL may have, most general first: under each of its folders, then its shape with
 * fewer and fewer placeholders (`/acme/:p1/:p2`, `/acme/product/:p2`), then the URL itself. `at(level)` makes
 * only the one asked for (the last for a level past them): most URLs are covered by the first few, and making
 * every pattern of 400,000 URLs up front took most of the rules' time.
 */
class CandidatePatterns {
  readonly #url: string;
  readonly #segments: string[];
  /** The segments a placeholder may stand for: not empty, and not the last one when it has an extension. */
  readonly #variable: number[] = [];
  /** How many patterns there are. */
  readonly count: number;

  constructor(url: string) {
    this.#url = url;
    this.#segments = url.split('/').slice(1);
    const last = this.#segments.length - 1;
    this.#segments.forEach((segment, i) => {
      if (segment !== '' && !(i === last && segment.includes('.'))) this.#variable.push(i);
    });
    // The folders above it; its shapes from all placeholders to one (each turns one more segment literal),
    // then the URL itself.
    this.count = last + 1 + this.#variable.length;
  }

  at(level: number): string {
    const folders = this.#segments.length - 1;
    if (level < folders) return `/${this.#segments.slice(0, level + 1).join('/')}/*`;
    const shape = level - folders;
    if (shape === 0) return this.#shape(0);
    // The shape whose literal segments run past the shape-th variable one; past the last, the URL.
    const variable = this.#variable[shape - 1];
    return variable === undefined || variable + 1 >= this.#segments.length ? this.#url : this.#shape(variable + 1);
  }

  /** The URL with every variable segment from `literal` on as a placeholder named by its position. */
  #shape(literal: number): string {
    const segments = [...this.#segments];
    for (const i of this.#variable) if (i >= literal) segments[i] = `:p${i}`;
    return `/${segments.join('/')}`;
  }
}

/**
 * The `_headers` file for files answered at `urls` with `headers`: each URL is matched by exactly one rule,
 * since hosts join a header set by two matching rules (Cloudflare) or keep only one (Netlify). Rules are
 * as general as the build allows — a pattern is used only when every URL of the build it matches is
 * answered with the same headers — so a catalog of thousands of pages needs a few rules per store.
 */
export function headersFile(files: { urls: string[]; headers: HeaderSet }[]): string {
  // Files given one header set object (build-manifest.ts shares them) are sorted and named once.
  const blocks: HeaderSet[] = [];
  const blockOfJson = new Map<string, number>();
  const blockOfSet = new Map<HeaderSet, number>();
  const blockOf = new Map<string, number>();
  for (const { urls, headers } of files) {
    let block = blockOfSet.get(headers);
    if (block === undefined) {
      const sorted = Object.fromEntries(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)));
      const json = JSON.stringify(sorted);
      block = blockOfJson.get(json);
      if (block === undefined) blockOfJson.set(json, (block = blocks.push(sorted) - 1));
      blockOfSet.set(headers, block);
    }
    for (const url of urls) blockOf.set(url, block);
  }
  const urls = [...blockOf.keys()].sort();
  const rules = rulesOf(urls, blockOf);
  return rules
    .map(({ pattern, block }) =>
      [pattern, ...Object.entries(blocks[block]!).map(([name, value]) => `  ${name}: ${value}`)].join('\n'),
    )
    .join('\n')
    .concat('\n');
}

type Rule = { pattern: string; block: number };

/**
 * The rules made last. An editor's publish has the live build's URLs with the same headers (but for the
 * build's own files, which `/builds/*` covers), and making its rules again was a twentieth of that
 * publish (docs/performance.md): they are used again when they still hold (`stillHold`).
 */
let lastRules: Rule[] = [];

/** Whether `rules` give each of the sorted `urls` its block and no other, each rule matching one at least. */
function stillHold(rules: Rule[], urls: string[], blocks: number[]): boolean {
  if (rules.length === 0) return false;
  const covered = new Uint8Array(urls.length);
  for (const { pattern, block } of rules) {
    const matched = matching(urls, pattern);
    if (matched.length === 0) return false;
    for (const index of matched) {
      if (covered[index] === 1 || blocks[index] !== block) return false;
      covered[index] = 1;
    }
  }
  return covered.every((one) => one === 1);
}

/** The fewest, most general rules giving each of the sorted `urls` its block of headers and no other. */
function rulesOf(urls: string[], blockOf: ReadonlyMap<string, number>): Rule[] {
  const blocks = urls.map((url) => blockOf.get(url)!);
  if (stillHold(lastRules, urls, blocks)) return lastRules;
  const covered = new Uint8Array(urls.length);
  const rules: Rule[] = [];
  const candidates = urls.map((url) => new CandidatePatterns(url));
  // A loop, not `Math.max(...)`: a 100,000-product build has 400,000 URLs, past what a call takes as arguments.
  const deepest = candidates.reduce((most, patterns) => Math.max(most, patterns.count), 0);
  const tried = new Set<string>();
  // Positions of the URLs no rule covers yet, in order: each level visits only those.
  let uncovered = urls.map((_, index) => index);
  for (let level = 0; level < deepest && uncovered.length > 0; level++) {
    for (const index of uncovered) {
      if (covered[index] === 1) continue;
      const pattern = candidates[index]!.at(level);
      if (tried.has(pattern)) continue;
      tried.add(pattern);
      const block = blocks[index]!;
      const matched = matching(urls, pattern);
      if (matched.some((other) => covered[other] === 1 || blocks[other] !== block)) continue;
      for (const other of matched) covered[other] = 1;
      rules.push({ pattern, block });
    }
    uncovered = uncovered.filter((index) => covered[index] === 0);
  }
  lastRules = rules;
  return rules;
}

/**
 * The positions in `sorted` of the URLs `pattern` matches. A folder's `/*` and a literal URL need no
 * expression: a build tries one of each per page folder, and compiling thousands of them was most of the
 * file's time.
 */
function matching(sorted: string[], pattern: string): number[] {
  const prefix = literalPrefix(pattern);
  const { start, end } = startingWith(sorted, prefix);
  const positions = (test: (url: string) => boolean) => {
    const found: number[] = [];
    for (let index = start; index < end; index++) if (test(sorted[index]!)) found.push(index);
    return found;
  };
  if (prefix === pattern) return positions((url) => url === pattern);
  if (prefix.length === pattern.length - 1 && pattern.endsWith('*')) return positions(() => true);
  const expression = patternRegExp(pattern);
  return positions((url) => expression.test(url));
}
