import { appendFileSync, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';

/**
 * A Linux CPU cgroup for the processes a section measures, weighted above everything else the machine
 * runs (docs/decisions/229-measured-processes-in-a-cpu-group.md). Chromium sets its own processes' nice values,
 * so a raised priority does not reach the renderers Lighthouse times; a cgroup's weight does, since
 * every process started inside one stays in it.
 */
export type CpuGroup = {
  /** What the measured processes got, for the report: "cgroup v1 cpu.shares 32768", say. */
  description: string;
  /** Moves live processes into the group (one that ended meanwhile is skipped). */
  add(pids: readonly number[]): void;
  /** Moves whatever is still in the group back where it came from, and removes the group. */
  release(): void;
};

/**
 * 32 nice-0 tasks' worth: under CFS the group's threads get 32 parts of a core for every part of one
 * busy neighbour, about nice −15. Enough that a page's tasks wait for no one on a machine running two
 * test workers and a browser; not the maximum (262,144), which would stall the neighbours' own timeouts
 * whenever Lighthouse keeps both cores busy.
 */
export const GROUP_WEIGHT_V1 = 32 * 1024;
/** cgroup v2's scale: 100 a default group, 10,000 the most; 3,200 is v1's 32 nice-0 tasks. */
export const GROUP_WEIGHT_V2 = 3200;

const GROUP_NAME = 'storefront-bench';

type Hierarchy = { version: 1 | 2; dir: string };

/**
 * This process's own group in the v1 cpu controller and in the v2 hierarchy, from `/proc/self/mountinfo`
 * and `/proc/self/cgroup` (v1 first: where both are mounted, v1's holds the cpu controller).
 */
export function cpuHierarchies(mountinfo: string, selfCgroup: string): Hierarchy[] {
  const found: Hierarchy[] = [];
  const groupOf = (match: (controllers: string[]) => boolean) =>
    selfCgroup
      .split('\n')
      .map((line) => /^\d+:([^:]*):(.*)$/.exec(line))
      .find((m) => m && match(m[1]!.split(',')))?.[2];
  for (const line of mountinfo.split('\n')) {
    // proc(5): fields before " - " are the mount's; after it the file system type, source and super options.
    const [before, after] = line.split(' - ');
    if (!before || !after) continue;
    const [, , , root = '/', mountPoint] = before.split(' ');
    const [fsType, , superOptions = ''] = after.split(' ');
    if (!mountPoint) continue;
    // A mount of part of a hierarchy (a container's, say) starts at `root`; /proc/self/cgroup names the
    // whole path.
    const under = (own: string) => path.join(mountPoint, own.startsWith(root) ? own.slice(root.length) : own);
    if (fsType === 'cgroup' && superOptions.split(',').includes('cpu')) {
      const own = groupOf((c) => c.includes('cpu'));
      if (own !== undefined) found.unshift({ version: 1, dir: under(own) });
    } else if (fsType === 'cgroup2') {
      const own = groupOf((c) => c.length === 1 && c[0] === '');
      if (own !== undefined) found.push({ version: 2, dir: under(own) });
    }
  }
  return found;
}

function tryOpen(h: Hierarchy): CpuGroup {
  if (h.version === 2) {
    const controllers = readFileSync(path.join(h.dir, 'cgroup.controllers'), 'utf8').split(/\s+/);
    if (!controllers.includes('cpu')) throw new Error(`no cpu controller in ${h.dir}`);
    const subtree = readFileSync(path.join(h.dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
    if (!subtree.includes('cpu')) writeFileSync(path.join(h.dir, 'cgroup.subtree_control'), '+cpu');
  }
  const dir = path.join(h.dir, GROUP_NAME);
  if (!existsSync(dir)) mkdirSync(dir);
  const [file, weight] = h.version === 1 ? ['cpu.shares', GROUP_WEIGHT_V1] : ['cpu.weight', GROUP_WEIGHT_V2];
  writeFileSync(path.join(dir, file), String(weight));
  const move = (pids: readonly number[], to: string) => {
    for (const pid of pids) {
      try {
        // One pid per write: the kernel takes a single process each time.
        appendFileSync(path.join(to, 'cgroup.procs'), `${pid}\n`);
      } catch {
        // The process ended meanwhile.
      }
    }
  };
  return {
    description: `cgroup v${h.version} ${file} ${weight}`,
    add: (pids) => move(pids, dir),
    release() {
      const left = readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
      move(left, h.dir);
      try {
        rmdirSync(dir);
      } catch {
        // A process that is still exiting keeps it; the next run reuses it.
      }
    },
  };
}

/**
 * Opens the group in the first CPU hierarchy that lets this process make one, or says why none did
 * (no cgroups, a read-only /sys/fs/cgroup, no right to write there): the section then runs as before.
 */
export function openCpuGroup(): CpuGroup | { unavailable: string } {
  let hierarchies: Hierarchy[];
  try {
    hierarchies = cpuHierarchies(
      readFileSync('/proc/self/mountinfo', 'utf8'),
      readFileSync('/proc/self/cgroup', 'utf8'),
    );
  } catch (error) {
    return { unavailable: `no cgroups here (${(error as Error).message})` };
  }
  const reasons: string[] = [];
  for (const h of hierarchies) {
    try {
      return tryOpen(h);
    } catch (error) {
      reasons.push(`v${h.version} ${h.dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  return { unavailable: reasons.length ? reasons.join('; ') : 'no CPU cgroup hierarchy mounted' };
}

/**
 * Runs `measure` with `pids`, and every process they start meanwhile, in the group; `measure` may add
 * more (a database's backends, say). `cpu` says where they ran, for the report; `measure` gets it too.
 */
export async function withCpuGroup<T>(
  pids: readonly number[],
  measure: (add: (pids: readonly number[]) => void, cpu: string) => Promise<T>,
): Promise<{ result: T; cpu: string }> {
  const group = openCpuGroup();
  if ('unavailable' in group) {
    const cpu = `shared with the machine (no CPU group: ${group.unavailable})`;
    return { result: await measure(() => {}, cpu), cpu };
  }
  const cpu = `in a CPU group, ${group.description}`;
  group.add(pids);
  try {
    return { result: await measure((more) => group.add(more), cpu), cpu };
  } finally {
    group.release();
  }
}

/** How often a database's backends are looked up, to join the group as a pool opens them. */
const BACKENDS_EVERY_MS = 500;

/**
 * Adds the PostgreSQL backends serving `database` to the group now and every half second until the
 * returned stop is called. They are read over `admin`, a connection to another database, so the lookup
 * is not one of the measured queries and its own backend stays out.
 */
export async function joinBackends(
  admin: pg.Client,
  database: string,
  add: (pids: readonly number[]) => void,
): Promise<() => void> {
  const lookUp = async () =>
    add(
      (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database])).rows.map(
        (r) => r.pid,
      ),
    );
  await lookUp();
  // A lookup that fails (the database being dropped as the section ends) leaves the group as it is.
  const timer = setInterval(() => void lookUp().catch(() => {}), BACKENDS_EVERY_MS);
  return () => clearInterval(timer);
}
