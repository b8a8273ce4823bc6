import { expect, test } from 'vitest';
import type { AstroHandler, FrontLocals } from '../../../src/front/front-server.ts';
import { renderPage } from '../../../src/front/page-render.ts';
import { renderingBindings, snapshotRenderPath } from '../../../src/front/rendering-request.ts';

const locals: FrontLocals = { customDomain: null, prerender: true, siteUrl: 'https://shop.example' };

test('a page is rendered without a socket: its status, type and every chunk of its body are kept', async () => {
  const seen: { url?: string; host?: string; cookie?: string; locals?: FrontLocals } = {};
  const handler: AstroHandler = async (req, res, _next, given) => {
    Object.assign(seen, { url: req.url, host: req.headers.host, cookie: req.headers.cookie, locals: given });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<html>');
    // A streamed render's chunks arrive over several turns.
    await Promise.resolve();
    // `ServerResponse`'s other signatures: an encoding before the callback, `end` with one.
    await new Promise<void>((resolve) => res.write('<body>shop</body>', 'utf8', () => resolve()));
    await new Promise<void>((resolve) => res.end('</html>', 'utf8', () => resolve()));
  };
  const page = await renderPage(handler, '/acme/shop', { host: '127.0.0.1:4321', locals });
  expect(page).toMatchObject({ status: 200, contentType: 'text/html; charset=utf-8' });
  expect(new TextDecoder().decode(page.body)).toBe('<html><body>shop</body></html>');
  // The bytes are a buffer of their own, not a view of Node's shared pool.
  expect(page.body.byteOffset).toBe(0);
  expect(page.body.buffer.byteLength).toBe(page.body.length);
  expect(seen).toEqual({ url: '/acme/shop', host: '127.0.0.1:4321', cookie: undefined, locals });
});

test("the API calls a render makes are that page's: the memo records them as its inputs", async () => {
  const calls: (string | null)[] = [];
  const handler: AstroHandler = async (_req, res) => {
    // What the in-process API fetch hands the API with each call (in-process-api.ts).
    calls.push(snapshotRenderPath(renderingBindings()));
    await Promise.resolve();
    calls.push(snapshotRenderPath(renderingBindings()));
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('ok');
  };
  await Promise.all([
    renderPage(handler, '/acme/product/1', { host: 'front', locals }),
    renderPage(handler, '/acme/product/2', { host: 'front', locals }),
  ]);
  expect(calls.sort()).toEqual(['/acme/product/1', '/acme/product/1', '/acme/product/2', '/acme/product/2']);
  // Outside a render nothing is attributed to a page.
  expect(snapshotRenderPath(renderingBindings())).toBeNull();
});

test('a redirect, a missing page and a failed render keep their status; an abandoned render rejects', async () => {
  const answering =
    (status: number, headers: Record<string, string> = {}): AstroHandler =>
    async (_req, res) => {
      res.writeHead(status, headers);
      res.end();
    };
  expect(await renderPage(answering(302, { location: '/acme' }), '/old', { host: 'front', locals })).toMatchObject({
    status: 302,
    contentType: '',
  });
  expect((await renderPage(answering(404), '/gone', { host: 'front', locals })).status).toBe(404);
  // Astro's handler answers 500 with statusCode and end() when a page throws.
  const failing: AstroHandler = async (_req, res) => {
    res.statusCode = 500;
    res.end('Internal Server Error');
  };
  expect((await renderPage(failing, '/acme', { host: 'front', locals })).status).toBe(500);
  const abandoned: AstroHandler = async (_req, res) => {
    res.write('<html>');
    res.destroy(new Error('stream broke'));
  };
  await expect(renderPage(abandoned, '/acme', { host: 'front', locals })).rejects.toThrow('stream broke');
});
