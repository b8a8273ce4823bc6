import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import stylelint from 'stylelint';
import { describe, expect, test } from 'vitest';

// The design tokens are the only source of colours, type and space (docs/decisions/185-design-tokens.md).
// The lint enforces it; these cases keep a config change from switching it off unnoticed, and check
// that the tokens themselves keep their contrast and that every token a stylesheet names exists.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const TOKENS_FILE = 'src/styles/tokens.css';
const tokensCss = readFileSync(path.join(root, TOKENS_FILE), 'utf8');

async function lintRules(filePath: string, code: string): Promise<string[]> {
  const { results } = await stylelint.lint({ code, codeFilename: path.join(root, filePath), cwd: root });
  return (results[0]?.warnings ?? []).map((warning) => warning.rule).sort();
}

describe('the token lint', { timeout: 60_000 }, () => {
  test('a raw colour, font size or space in a stylesheet is an error', async () => {
    const rules = await lintRules(
      'src/components/catalog/catalog.css',
      '.x {\n  color: #333;\n  background: rgb(0 0 0 / 0.5);\n  font-size: 14px;\n  padding: 0 12px;\n}\n',
    );
    expect(rules).toEqual([
      'color-no-hex',
      'function-disallowed-list',
      'scale-unlimited/declaration-strict-value',
      'scale-unlimited/declaration-strict-value',
    ]);
  });

  test('a raw colour in an Astro component’s style block is an error', async () => {
    const rules = await lintRules(
      'src/components/Example.astro',
      '---\n---\n<p class="x">Hi</p>\n<style>\n  .x {\n    border: 1px solid white;\n  }\n</style>\n',
    );
    expect(rules).toEqual(['color-named']);
  });

  test('the same values written as tokens pass', async () => {
    const rules = await lintRules(
      'src/components/catalog/catalog.css',
      '.x {\n  color: var(--color-text);\n  font-size: var(--font-size-sm);\n  padding: 0 var(--space-3);\n  margin: 0 auto;\n}\n',
    );
    expect(rules).toEqual([]);
  });

  test('the tokens file is where raw values are written', async () => {
    const rules = await lintRules(TOKENS_FILE, ':root {\n  --color-example: #333;\n  --space-example: 12px;\n}\n');
    expect(rules).toEqual([]);
  });
});

/** The `--name: #rrggbb;` colours of the tokens file. */
function tokenColours(): Map<string, string> {
  return new Map([...tokensCss.matchAll(/(--color-[a-z-]+):\s*(#[0-9a-f]{6});/g)].map((m) => [m[1]!, m[2]!]));
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

describe('the colour tokens', () => {
  const colours = tokenColours();
  const pairs: [foreground: string, background: string, minimum: number][] = [
    ['--color-text', '--color-bg', 4.5],
    ['--color-text', '--color-surface', 4.5],
    ['--color-muted', '--color-bg', 4.5],
    ['--color-muted', '--color-surface', 4.5],
    ['--color-accent', '--color-bg', 4.5],
    ['--color-accent', '--color-surface', 4.5],
    ['--color-accent-text', '--color-accent', 4.5],
    ['--color-error', '--color-bg', 4.5],
    ['--color-error', '--color-error-surface', 4.5],
    ['--color-success', '--color-bg', 4.5],
    ['--color-success', '--color-success-surface', 4.5],
    ['--color-warning', '--color-warning-surface', 4.5],
    // Non-text contrast (WCAG 1.4.11): a field's edge and the focus ring against the page.
    ['--color-control-border', '--color-bg', 3],
    ['--color-accent', '--color-bg', 3],
  ];
  test.each(pairs)('%s on %s reaches %d:1', (foreground, background, minimum) => {
    const [fg, bg] = [colours.get(foreground), colours.get(background)];
    expect(fg, foreground).toBeDefined();
    expect(bg, background).toBeDefined();
    expect(contrast(fg!, bg!)).toBeGreaterThanOrEqual(minimum);
  });

  test('the focus ring is drawn in the accent colour', () => {
    expect(tokensCss).toMatch(/--color-focus:\s*var\(--color-accent\);/);
  });
});

describe('the stylesheets', () => {
  const files = globSync(['src/**/*.css', 'src/**/*.astro'], { cwd: root });
  const sources = files.map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));
  // Set at run time by the icon loader (src/lib/icon-loader.ts), not in a stylesheet.
  const setByScript = new Set(['--icon']);
  const defined = new Set([
    ...setByScript,
    ...sources.flatMap(({ text }) => [...text.matchAll(/(--[a-z0-9-]+)\s*:/g)].map((m) => m[1]!)),
  ]);

  test('name only tokens that exist (a misspelt var() silently falls back)', () => {
    const unknown = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/var\((--[a-z0-9-]+)/g)].filter((m) => !defined.has(m[1]!)).map((m) => `${file}: ${m[1]}`),
    );
    expect(files.length).toBeGreaterThan(5);
    expect(unknown).toEqual([]);
  });
});
