import { describe, expect, test, vi } from 'vitest';
import { COUNTRY_LOOKUP_FAILED, detectCountryByIp, parseCountryAnswer } from '../../../src/lib/phone/index.ts';

const LIST = [{ iso2: 'af' }, { iso2: 'al' }];
const answer = (body: string, status = 200) => vi.fn(async () => new Response(body, { status }));

describe('lookup answer parsing', () => {
  test('an answer beginning with 1 gives the country at positions 2–3', () => {
    expect(parseCountryAnswer('1;GB;GBR;United Kingdom')).toEqual({ ok: true, country: 'GB' });
    expect(parseCountryAnswer('1;de;DEU;Germany')).toEqual({ ok: true, country: 'DE' });
  });
  test('an answer beginning with 1 but without a country there is a failure', () => {
    expect(parseCountryAnswer('1;;;')).toEqual({ ok: false, error: COUNTRY_LOOKUP_FAILED });
    expect(parseCountryAnswer('1')).toEqual({ ok: false, error: COUNTRY_LOOKUP_FAILED });
  });
  test('any other answer is the failure "unable to fetch the country"', () => {
    expect(parseCountryAnswer('0;;;')).toEqual({ ok: false, error: 'unable to fetch the country' });
    expect(parseCountryAnswer('')).toEqual({ ok: false, error: 'unable to fetch the country' });
    expect(parseCountryAnswer('2;US;USA;United States')).toEqual({ ok: false, error: 'unable to fetch the country' });
  });
});

describe('country by IP', () => {
  test('a successful lookup gives its country', async () => {
    const fetch = answer('1;FR;FRA;France');
    await expect(detectCountryByIp({ url: 'https://geo.test/ip', countries: LIST, fetch })).resolves.toEqual({
      country: 'FR',
      source: 'lookup',
    });
    expect(fetch).toHaveBeenCalledWith('https://geo.test/ip', expect.objectContaining({ method: 'GET' }));
  });

  test('a failed answer falls back to the first preferred country', async () => {
    await expect(
      detectCountryByIp({
        url: 'https://geo.test/ip',
        countries: LIST,
        preferredCountries: ['us', 'gb'],
        fetch: answer('0'),
      }),
    ).resolves.toEqual({ country: 'US', source: 'fallback', error: COUNTRY_LOOKUP_FAILED });
  });

  test('without preferred countries the first listed one is used', async () => {
    await expect(
      detectCountryByIp({ url: 'https://geo.test/ip', countries: LIST, fetch: answer('oops', 500) }),
    ).resolves.toMatchObject({ country: 'AF', source: 'fallback' });
  });

  test('without a lookup URL nothing is fetched and the fallback applies', async () => {
    const fetch = answer('1;FR;FRA;France');
    await expect(
      detectCountryByIp({ url: undefined, countries: LIST, preferredCountries: ['us'], fetch }),
    ).resolves.toMatchObject({ country: 'US', source: 'fallback' });
    expect(fetch).not.toHaveBeenCalled();
  });

  test('off the network the lookup gives up after its timeout and falls back', async () => {
    // A fetch that never answers on its own, only when aborted, like an unreachable host.
    const hanging = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
        }),
    );
    // Without the timeout this call never settles and the test fails on Vitest's own time limit.
    const result = await detectCountryByIp({
      url: 'https://geo.test/ip',
      countries: LIST,
      preferredCountries: ['ca'],
      fetch: hanging,
      timeoutMs: 50,
    });
    expect(result).toMatchObject({ country: 'CA', source: 'fallback' });
  });

  test('a refused connection falls back', async () => {
    const refused = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    await expect(
      detectCountryByIp({ url: 'http://127.0.0.1:9/', countries: LIST, fetch: refused }),
    ).resolves.toMatchObject({ source: 'fallback' });
  });
});
