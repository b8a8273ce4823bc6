import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load, type LoadFigures } from './api-bench.ts';
import { stopChild, waitForUrl } from './processes.ts';
import { startScript } from './storefront-process.ts';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** A throwaway nginx.conf serving the snapshot folder the way a CDN origin would (gzip_static, keep-alive). */
function nginxConf(dir: string, root: string, port: number, workers: string): string {
  return `
worker_processes ${workers};
user root;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  types { text/html html; application/json json; application/javascript js; text/css css; image/svg+xml svg; }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  keepalive_requests 100000;
  gzip_static on;
  etag on;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { try_files $uri $uri/index.html =404; }
  }
}
`;
}

/**
 * Requests per second for one prerendered product page: from the running storefront, from `sirv`
 * (the library our reader was weighed against) and from nginx serving the same files, one after the
 * other in the same run, same connections and encoding. Ratios are of nginx.
 */
export async function staticRun(
  storefrontUrl: string,
  buildsDir: string,
  pagePath: string,
  ports: { nginx: number; sirv: number },
  seconds: number,
  log: (line: string) => void,
): Promise<LoadFigures[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-nginx-'));
  const root = await realpath(path.join(buildsDir, 'current'));
  const workers = process.env.BENCH_NGINX_WORKERS ?? 'auto';
  await writeFile(path.join(dir, 'nginx.conf'), nginxConf(dir, root, ports.nginx, workers));
  const nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const nginxUrl = `http://127.0.0.1:${ports.nginx}`;
  const sirv = await startScript(
    'scripts/bench/sirv-server.ts',
    ports.sirv,
    `http://127.0.0.1:${ports.sirv}${pagePath}`,
    {
      SIRV_ROOT: root,
    },
  );
  try {
    await waitForUrl(nginxUrl + pagePath, 10_000, nginx);
    const target = {
      name: `static ${pagePath}`,
      method: 'GET' as const,
      path: pagePath,
      headers: { 'accept-encoding': 'gzip' },
    };
    const results: LoadFigures[] = [];
    for (const [label, url] of [
      ['storefront', storefrontUrl],
      ['sirv', sirv.url],
      [`nginx (${workers} workers)`, nginxUrl],
    ] as const) {
      await load(url, target, 1, { label }); // warm-up
      const figures = await load(url, target, seconds, { label });
      log(`  static ${label}: ${figures.requestsPerSecond} req/s, p99 ${figures.p99Ms} ms`);
      results.push(figures);
    }
    const ceiling = results.at(-1)!.requestsPerSecond;
    for (const f of results.slice(0, -1)) f.ofCeiling = Math.round((f.requestsPerSecond / ceiling) * 1000) / 1000;
    return results;
  } finally {
    await sirv.stop();
    await stopChild(nginx, 'SIGQUIT');
    await rm(dir, { recursive: true, force: true });
  }
}
