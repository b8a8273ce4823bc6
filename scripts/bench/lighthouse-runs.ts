import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { median, round } from './stats.ts';

export type LighthouseFigures = {
  page: string;
  preset: 'mobile' | 'desktop';
  runs: number;
  /** Medians of the runs. */
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  totalBytes: number;
  /** Every run's score, to show the spread. */
  scores: number[];
};

const CHROME_FLAGS = ['--headless', ...CHROMIUM_ARGS];

/** Pages shown for the shopper's cart: Lighthouse visits them with its cookie (an empty cart shows no form). */
const CART_PAGES = new Set(['cart', 'checkout']);

/**
 * Lighthouse's performance category for each page and preset, `runs` times, medians reported.
 * One Chromium serves every run; each run gets a fresh tab and clears storage (Lighthouse's default).
 */
export async function runLighthouse(
  baseUrl: string,
  pages: Record<string, string>,
  runs: number,
  cookie: string,
  log: (line: string) => void,
): Promise<LighthouseFigures[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  const results: LighthouseFigures[] = [];
  try {
    for (const preset of ['mobile', 'desktop'] as const) {
      for (const [name, pagePath] of Object.entries(pages)) {
        const samples: { score: number; lcp: number; tbt: number; cls: number; bytes: number }[] = [];
        for (let i = 0; i < runs; i++) {
          const lhr = await runOnce(
            chrome.port,
            baseUrl + pagePath,
            preset,
            CART_PAGES.has(name) ? { Cookie: cookie } : {},
          );
          const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
          samples.push({
            score: (lhr.categories.performance?.score ?? Number.NaN) * 100,
            lcp: audit('largest-contentful-paint'),
            tbt: audit('total-blocking-time'),
            cls: audit('cumulative-layout-shift'),
            bytes: audit('total-byte-weight'),
          });
        }
        const figures: LighthouseFigures = {
          page: name,
          preset,
          runs,
          score: median(samples.map((s) => s.score)),
          lcpMs: round(median(samples.map((s) => s.lcp))),
          tbtMs: round(median(samples.map((s) => s.tbt))),
          cls: round(median(samples.map((s) => s.cls)), 3),
          totalBytes: round(median(samples.map((s) => s.bytes))),
          scores: samples.map((s) => round(s.score)),
        };
        log(
          `  lighthouse ${preset} ${name}: ${figures.score} (LCP ${figures.lcpMs} ms, TBT ${figures.tbtMs} ms, CLS ${figures.cls})`,
        );
        results.push(figures);
      }
    }
  } finally {
    chrome.kill();
  }
  return results;
}

/**
 * One Lighthouse run; a run whose trace Chromium failed to record (NO_NAVSTART and the like, seen
 * now and then on a busy machine) is repeated, up to two more times.
 */
async function runOnce(port: number, url: string, preset: 'mobile' | 'desktop', extraHeaders: Record<string, string>) {
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await lighthouse(
      url,
      { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], extraHeaders },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    if (lhr && !lhr.runtimeError) return lhr;
    lastError = lhr?.runtimeError?.message ?? 'no result';
  }
  throw new Error(`Lighthouse failed three times on ${url}: ${lastError}`);
}
