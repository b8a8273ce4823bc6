import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { envSchema, loadConfig, publicSiteUrl } from '../../../src/server/config.ts';

type ReadmeRow = {
  name: string;
  defaultCell: string;
  meaning: string;
};

/** The rows of the README's "Configuration" table: `| \`NAME\` | default | meaning |`. */
function readmeRows(): ReadmeRow[] {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Configuration\n'));
  const table = section.slice(section.indexOf('\n|')).split('\n\n')[0] ?? '';
  return table
    .split('\n')
    .filter((line) => /^\| `[A-Z][A-Z0-9_]*` \|/.test(line))
    .map((line) => {
      const [name = '', defaultCell = '', meaning = ''] = line.slice(2, -2).split(' | ');
      return { name: name.replaceAll('`', ''), defaultCell, meaning };
    });
}

const schema = z.toJSONSchema(envSchema, { io: 'input', unrepresentable: 'any' }) as {
  properties: Record<string, { default?: unknown; description?: string }>;
};

describe('the configuration schema and the README', () => {
  const rows = readmeRows();

  test('the README table lists every variable of the schema, and no other', () => {
    expect(rows.map((row) => row.name).sort()).toEqual(Object.keys(schema.properties).sort());
  });

  test.each(rows.map((row) => [row.name, row] as const))('%s has the README’s meaning and default', (name, row) => {
    const property = schema.properties[name];
    expect(property?.description).toBe(row.meaning);
    if (property?.default !== undefined) expect(row.defaultCell).toBe(`\`${String(property.default)}\``);
    // A variable without a default says what happens instead (`—`, or how the value is made).
    else expect(row.defaultCell).not.toMatch(/^`[^`$]*`$/);
  });
});

describe('loadConfig', () => {
  test.each([
    [
      'STATIC_MEMORY_CACHE_MB',
      'abc',
      'STATIC_MEMORY_CACHE_MB: STATIC_MEMORY_CACHE_MB must be a whole number of megabytes',
    ],
    ['API_MICROCACHE_MS', '1s', 'API_MICROCACHE_MS: API_MICROCACHE_MS must be a whole number of milliseconds'],
    ['PORT', 'http', 'PORT: PORT must be a port number'],
    ['DEV_API_PORT', '70000', 'DEV_API_PORT: DEV_API_PORT must be a port number'],
    ['SNAPSHOT_ON_START', 'yes', 'SNAPSHOT_ON_START: SNAPSHOT_ON_START must be 1'],
    ['PUBLIC_GEOIP_URL', 'not a url', 'PUBLIC_GEOIP_URL: PUBLIC_GEOIP_URL must be a URL'],
    ['MAIL_MAX_ATTEMPTS', 'many', 'MAIL_MAX_ATTEMPTS: expected a whole number above 0'],
  ])('%s=%s stops the start with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  test('unset variables take the defaults of the README', () => {
    expect(loadConfig({})).toMatchObject({
      PORT: 4321,
      STATIC_MEMORY_CACHE_MB: 128,
      API_MICROCACHE_MS: 1000,
      SNAPSHOT_ON_START: true,
      DIST_DIR: 'dist',
    });
  });
});

describe('the public site URL (links printed, mailed and rendered)', () => {
  test('is PUBLIC_SITE_URL when set', () => {
    const env = { PUBLIC_SITE_URL: 'https://shop.example.com', PORT: '4500' };
    expect(publicSiteUrl(env, loadConfig(env))).toBe('https://shop.example.com');
  });

  test('is where `npm start` serves otherwise: the port it listens on, else PORT', () => {
    const env = { PORT: '4500' };
    expect(publicSiteUrl(env, loadConfig(env))).toBe('http://localhost:4500');
    expect(publicSiteUrl(env, loadConfig(env), 4600)).toBe('http://localhost:4600');
    expect(publicSiteUrl({}, loadConfig({}))).toBe('http://localhost:4321');
  });
});
