import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { inProcessApiFetch } from '../../../src/front/in-process-api.ts';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

test("the process's own API calls go straight to the API handler, others over the network", async () => {
  server = createServer((_req, res) => res.end('from the network'));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const seen: string[] = [];
  const fetch = inProcessApiFetch(['http://127.0.0.1:1/api/'], async (request) => {
    seen.push(`${request.method} ${new URL(request.url).pathname} ${await request.text()}`);
    return Response.json({ ok: true }, { headers: { 'recipient-token': 't' } });
  });

  const own = await fetch('http://127.0.0.1:1/api/store_front/acme/cart', { method: 'POST', body: '{"a":1}' });
  expect(await own.json()).toEqual({ ok: true });
  expect(own.headers.get('recipient-token')).toBe('t');
  expect(seen).toEqual(['POST /api/store_front/acme/cart {"a":1}']);

  const other = await fetch(`http://127.0.0.1:${port}/api/health`);
  expect(await other.text()).toBe('from the network');
});

test('the global fetch is left alone', async () => {
  const original = globalThis.fetch;
  const fetch = inProcessApiFetch(['http://127.0.0.1:1/api/'], () => new Response('x'));
  expect(await (await fetch('http://127.0.0.1:1/api/health')).text()).toBe('x');
  expect(globalThis.fetch).toBe(original);
});

test("a caller's timeout still ends a call that the API does not answer", async () => {
  const fetch = inProcessApiFetch(['http://127.0.0.1:1/api/'], () => new Promise<Response>(() => {}));
  await expect(fetch('http://127.0.0.1:1/api/store_front/acme', { signal: AbortSignal.timeout(50) })).rejects.toThrow(
    /timeout|abort/i,
  );
});

test('a timeout that fires after the answer is harmless', async () => {
  const fetch = inProcessApiFetch(['http://127.0.0.1:1/api/'], () => Response.json({ ok: true }));
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const response = await fetch('http://127.0.0.1:1/api/health', { signal: AbortSignal.timeout(20) });
  expect(await response.json()).toEqual({ ok: true });
  await new Promise((resolve) => setTimeout(resolve, 60));
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

test('a GET known without the API is answered without a call; writes and unknown reads reach the API', async () => {
  const called: string[] = [];
  const asked: string[] = [];
  const fetch = inProcessApiFetch(
    ['http://127.0.0.1:1/api/'],
    (request) => {
      called.push(`${request.method} ${new URL(request.url).pathname}`);
      return Response.json({ from: 'api' });
    },
    {
      known: (url, headers) => {
        asked.push(`${url.pathname} ${headers.get('accept')}`);
        return url.pathname.endsWith('/kept') ? Response.json({ from: 'memo' }) : undefined;
      },
    },
  );
  const headers = new Headers({ accept: 'application/json' });
  expect(await (await fetch('http://127.0.0.1:1/api/kept', { headers })).json()).toEqual({ from: 'memo' });
  expect(await (await fetch('http://127.0.0.1:1/api/other', { headers })).json()).toEqual({ from: 'api' });
  expect(await (await fetch('http://127.0.0.1:1/api/kept', { method: 'POST', body: '{}' })).json()).toEqual({
    from: 'api',
  });
  expect(asked).toEqual(['/api/kept application/json', '/api/other application/json']);
  expect(called).toEqual(['GET /api/other', 'POST /api/kept']);
  await expect(fetch('http://127.0.0.1:1/api/kept', { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow(
    'gone',
  );
});
