import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv } from './bench-env.ts';
import { stopChild, waitForUrl } from './processes.ts';

export type RunningServer = {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
};

/** Starts `npm start`'s code (scripts/start.ts) in its own process, as production runs it. */
export async function startStorefrontProcess(options: {
  port: number;
  env: Record<string, string>;
  timeoutMs?: number;
}): Promise<RunningServer> {
  const env = childEnv({ PORT: String(options.port), HOST: '127.0.0.1', ...options.env });
  const child = spawn(process.execPath, ['scripts/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitForUrl(`${url}/api/health`, options.timeoutMs ?? 240_000, child);
  } catch (error) {
    await stopChild(child);
    throw new Error(`The storefront on port ${options.port} did not start:\n${output}`, { cause: error });
  }
  return { url, child, stop: () => stopChild(child) };
}

/** Starts a file of scripts/bench as a child process and waits until `readyUrl` answers. */
export async function startScript(
  file: string,
  port: number,
  readyUrl: string,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const child = spawn(process.execPath, [file], {
    env: childEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForUrl(readyUrl, 20_000, child);
  return { url: `http://127.0.0.1:${port}`, child, stop: () => stopChild(child) };
}
