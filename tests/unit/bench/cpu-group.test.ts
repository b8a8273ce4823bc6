import { describe, expect, test } from 'vitest';
import { cpuHierarchies } from '../../../scripts/bench/cpu-group.ts';

// Lines as /proc/self/mountinfo has them (proc(5)): id, parent, device, root, mount point, options, " - ", type, source, super options.
const V1_CPU = '32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu';
const V1_CPUACCT = '33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct';
const V2_UNIFIED = '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw';
const ROOT = '22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw';

describe('cpuHierarchies', () => {
  test('v1 cpu and a v2 hierarchy both mounted: v1 first, each at this process’s own group', () => {
    const found = cpuHierarchies(
      [ROOT, V1_CPU, V1_CPUACCT, V2_UNIFIED].join('\n'),
      ['4:memory:/x', '2:cpuacct:/', '1:cpu:/bench', '0::/'].join('\n'),
    );
    expect(found).toEqual([
      { version: 1, dir: '/sys/fs/cgroup/cpu/bench' },
      { version: 2, dir: '/sys/fs/cgroup/unified' },
    ]);
  });

  test('a combined cpu,cpuacct controller mounted from inside the hierarchy (a container’s view)', () => {
    const found = cpuHierarchies(
      '35 31 0:31 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpuacct,cpu',
      '5:cpuacct,cpu:/docker/abc',
    );
    expect(found).toEqual([{ version: 1, dir: '/sys/fs/cgroup/cpu,cpuacct' }]);
  });

  test('v2 alone, with the process in a nested group', () => {
    const found = cpuHierarchies(
      '30 24 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate',
      '0::/user.slice/session-1.scope',
    );
    expect(found).toEqual([{ version: 2, dir: '/sys/fs/cgroup/user.slice/session-1.scope' }]);
  });

  test('no cgroup mounted, or a v1 hierarchy without the cpu controller: none', () => {
    expect(cpuHierarchies([ROOT, V1_CPUACCT].join('\n'), '2:cpuacct:/')).toEqual([]);
    expect(cpuHierarchies('', '')).toEqual([]);
  });
});
