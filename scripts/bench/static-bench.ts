import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load, type LoadFigures } from './api-bench.ts';
import { stopChild, waitForUrl } from './processes.ts';
import { startScript } from './storefront-process.ts';
import { median, round } from './stats.ts';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
/**
 * Debian's module that sends a file's `.br` sibling (libnginx-mod-http-brotli-static): snapshot pages are
 * written with brotli only (docs/decisions/222-pages-compressed-once.md), so nginx serves them as ours does.
 */
export const NGINX_BROTLI_STATIC =
  process.env.NGINX_BROTLI_STATIC_PATH ?? '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/** A throwaway nginx.conf serving the snapshot folder the way a CDN origin would (brotli_static, keep-alive). */
function nginxConf(dir: string, root: string, port: number, workers: string): string {
  return `
load_module ${NGINX_BROTLI_STATIC};
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
  brotli_static on;
  etag on;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { try_files $uri $uri/index.html =404; }
  }
}
`;
}

/** nginx on `port` with `workers` worker processes, ready when `readyPath` answers, until `stop()`. */
async function startNginx(
  root: string,
  port: number,
  workers: string,
  readyPath: string,
): Promise<{ url: string; pid: number | undefined; stop(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-nginx-'));
  await writeFile(path.join(dir, 'nginx.conf'), nginxConf(dir, root, port, workers));
  const nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    await stopChild(nginx, 'SIGQUIT');
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForUrl(`http://127.0.0.1:${port}${readyPath}`, 10_000, nginx);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, pid: nginx.pid, stop };
}

/** Rounds each server is measured in, alternating, so a load that changes during the section meets all of them. */
const ROUNDS = 3;

type Served = { label: string; url: string; pid: number | undefined };

/**
 * Requests per second and server CPU per request for one prerendered product page: from the running
 * storefront, from `sirv` (the library our reader was weighed against) and from nginx serving the same
 * files with the same encoding, connections and keep-alive. The servers take turns, `ROUNDS` times, so
 * each meets the same load. Ratios are of nginx with one worker, the last row: one event loop against
 * one (docs/decisions/210-budgets-as-ratios-in-one-run.md); the budget compares CPU per request, which
 * does not depend on the share of the cores each got (docs/decisions/215-references-that-share-the-bottleneck.md).
 * nginx with a worker per core is measured too and shown, not budgeted (`BENCH_NGINX_WORKERS` changes it).
 */
export async function staticRun(
  storefront: { url: string; child: { pid?: number | undefined } },
  buildsDir: string,
  pagePath: string,
  ports: { nginx: number; nginxAllCores: number; sirv: number },
  seconds: number,
  log: (line: string) => void,
): Promise<LoadFigures[]> {
  const root = await realpath(path.join(buildsDir, 'current'));
  const workers = process.env.BENCH_NGINX_WORKERS ?? 'auto';
  const sirv = await startScript(
    'scripts/bench/sirv-server.ts',
    ports.sirv,
    `http://127.0.0.1:${ports.sirv}${pagePath}`,
    {
      SIRV_ROOT: root,
    },
  );
  const nginxAllCores = await startNginx(root, ports.nginxAllCores, workers, pagePath);
  const nginx = await startNginx(root, ports.nginx, '1', pagePath);
  try {
    const target = {
      name: `static ${pagePath}`,
      method: 'GET' as const,
      path: pagePath,
      // What browsers send over HTTPS; each server answers with the page's `.br`.
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    };
    const servers: Served[] = [
      { label: 'storefront', url: storefront.url, pid: storefront.child.pid },
      { label: 'sirv', url: sirv.url, pid: sirv.child.pid },
      { label: `nginx (${workers} workers)`, url: nginxAllCores.url, pid: nginxAllCores.pid },
      { label: 'nginx (1 worker)', url: nginx.url, pid: nginx.pid },
    ];
    const rounds = servers.map((): LoadFigures[] => []);
    for (const { label, url } of servers) await load(url, target, 1, { label }); // warm-up
    const roundSeconds = Math.max(1, Math.round(seconds / ROUNDS));
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, { label, url, pid }] of servers.entries())
        rounds[i]!.push(await load(url, target, roundSeconds, { label, serverPid: pid }));
    const results = rounds.map(mergeRounds);
    for (const f of results)
      log(
        `  static ${f.target}: ${f.requestsPerSecond} req/s, p99 ${f.p99Ms} ms, ${f.cpuMicrosPerRequest ?? '?'} µs CPU per request`,
      );
    const ceiling = results.at(-1)!.requestsPerSecond;
    for (const f of results.slice(0, -1)) f.ofCeiling = Math.round((f.requestsPerSecond / ceiling) * 1000) / 1000;
    return results;
  } finally {
    await sirv.stop();
    await nginxAllCores.stop();
    await nginx.stop();
  }
}

/** One server's rounds of equal length as one figure: mean rate, CPU per request over all of them, worst p99. */
function mergeRounds(rounds: LoadFigures[]): LoadFigures {
  const first = rounds[0]!;
  const requests = rounds.reduce((sum, f) => sum + f.requestsPerSecond, 0);
  const cpu = rounds.every((f) => f.cpuMicrosPerRequest !== undefined)
    ? rounds.reduce((sum, f) => sum + f.cpuMicrosPerRequest! * f.requestsPerSecond, 0) / requests
    : undefined;
  return {
    name: first.name,
    target: first.target,
    requestsPerSecond: round(requests / rounds.length),
    p50Ms: median(rounds.map((f) => f.p50Ms)),
    p99Ms: Math.max(...rounds.map((f) => f.p99Ms)),
    non2xx: rounds.reduce((sum, f) => sum + f.non2xx, 0),
    errors: rounds.reduce((sum, f) => sum + f.errors, 0),
    ...(cpu !== undefined ? { cpuMicrosPerRequest: round(cpu, 1) } : {}),
  };
}
