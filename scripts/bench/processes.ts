import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

type ProcessRow = { ppid: number; rssBytes: number; cpuTicks: number };

/** Every process of /proc with its parent, resident memory and CPU ticks (empty when /proc is missing). */
function processTable(): Map<number, ProcessRow> {
  const rows = new Map<number, ProcessRow>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return rows;
  }
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // proc(5): utime and stime are fields 14 and 15, counted from the pid; the threads' time included.
      const cpuTicks = Number(fields[11]) + Number(fields[12]);
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const rssBytes = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      rows.set(Number(name), { ppid: Number(fields[1]), rssBytes, cpuTicks });
    } catch {
      // The process ended while we looked.
    }
  }
  return rows;
}

/** A process and all its live descendants (Linux /proc; only `rootPid` elsewhere). */
export function treePids(rootPid: number): number[] {
  return treeRows(processTable(), rootPid).map(([pid]) => pid);
}

function treeRows(rows: Map<number, ProcessRow>, rootPid: number): [number, ProcessRow | undefined][] {
  const children = new Map<number, number[]>();
  for (const [pid, row] of rows) children.set(row.ppid, [...(children.get(row.ppid) ?? []), pid]);
  const out: [number, ProcessRow | undefined][] = [];
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push([pid, rows.get(pid)]);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** The sum of `pick` over a process and all its descendants (Linux /proc; 0 elsewhere). */
function sumOverTree(rootPid: number, pick: (row: ProcessRow) => number): number {
  let total = 0;
  for (const [, row] of treeRows(processTable(), rootPid)) if (row) total += pick(row);
  return total;
}

/** Resident memory of a process and all its descendants, in bytes (Linux /proc; 0 elsewhere). */
export function treeRss(rootPid: number): number {
  return sumOverTree(rootPid, (row) => row.rssBytes);
}

/** Clock ticks per second of /proc's CPU times: 100 on every Linux this runs on (USER_HZ). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system, all threads) a live process and its live descendants have used so far:
 * the difference of two readings is the CPU a server spent on the requests between them.
 */
export function treeCpuSeconds(rootPid: number): number {
  return sumOverTree(rootPid, (row) => row.cpuTicks) / TICKS_PER_SECOND;
}

export type MeasuredRun = {
  code: number | null;
  wallSeconds: number;
  /** Highest sum of RSS over the process tree, sampled every 100 ms. */
  peakTreeRssBytes: number;
  /** User + system CPU seconds of the command and its children, from /usr/bin/time when installed. */
  cpuSeconds?: number;
  /** The system (kernel) part of `cpuSeconds`: file system and memory work rather than our code. */
  systemCpuSeconds?: number;
  output: string;
};

/** A run's CPU seconds, rounded to a tenth, for the figures of a timed build (absent without GNU time). */
export function cpuFigures(run: MeasuredRun): { cpuSeconds?: number; systemCpuSeconds?: number } {
  const tenth = (seconds: number) => Math.round(seconds * 10) / 10;
  return {
    ...(run.cpuSeconds !== undefined ? { cpuSeconds: tenth(run.cpuSeconds) } : {}),
    ...(run.systemCpuSeconds !== undefined ? { systemCpuSeconds: tenth(run.systemCpuSeconds) } : {}),
  };
}

/** Runs a command to completion, measuring wall clock and the peak memory of its whole process tree. */
export function measureCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  onLine?: (line: string) => void,
): Promise<MeasuredRun> {
  const started = performance.now();
  // GNU time adds the CPU seconds of the whole tree (it reports on stderr; -f keeps it one line).
  const timed = existsSync('/usr/bin/time');
  const child = timed
    ? spawn('/usr/bin/time', ['-f', 'bench-cpu %U %S', command, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let peak = 0;
  let output = '';
  const sample = () => {
    if (child.pid) peak = Math.max(peak, treeRss(child.pid));
  };
  const timer = setInterval(sample, 100);
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-20_000);
    if (onLine) for (const line of text.split(/[\r\n]+/)) if (line.trim()) onLine(line);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      const cpu = /bench-cpu ([\d.]+) ([\d.]+)/.exec(output);
      resolve({
        code,
        wallSeconds: (performance.now() - started) / 1000,
        peakTreeRssBytes: peak,
        ...(cpu ? { cpuSeconds: Number(cpu[1]) + Number(cpu[2]), systemCpuSeconds: Number(cpu[2]) } : {}),
        output,
      });
    });
  });
}

/** Stops a child we started (its process group when it leads one) and waits for it to exit. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timeout);
}

/** Polls a URL until it answers 2xx or the time runs out. */
export async function waitForUrl(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`The server for ${url} exited with ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
