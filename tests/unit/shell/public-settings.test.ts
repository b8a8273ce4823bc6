// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { publicSettings, readPageSetting } from '../../../src/lib/public-settings.ts';

afterEach(() => {
  document.head.replaceChildren();
});

test('the country-by-IP lookup URL is taken from the environment the server runs in', () => {
  expect(publicSettings({ PUBLIC_GEOIP_URL: 'https://geo.example/lookup' })).toEqual({
    'geoip-url': 'https://geo.example/lookup',
  });
  expect(publicSettings({})).toEqual({});
});

test('only an absolute http(s) URL is passed on to the page', () => {
  expect(publicSettings({ PUBLIC_GEOIP_URL: 'javascript:alert(1)' })).toEqual({});
  expect(publicSettings({ PUBLIC_GEOIP_URL: '/relative' })).toEqual({});
  expect(publicSettings({ PUBLIC_GEOIP_URL: '  ' })).toEqual({});
});

test('the page setting is read from its meta tag', () => {
  expect(readPageSetting('geoip-url', document)).toBeUndefined();
  const meta = document.createElement('meta');
  meta.name = 'geoip-url';
  meta.content = 'https://geo.example/lookup';
  document.head.append(meta);
  expect(readPageSetting('geoip-url', document)).toBe('https://geo.example/lookup');
});
