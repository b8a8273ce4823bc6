import { readFileSync } from 'node:fs';
import os from 'node:os';

export type MachineInfo = {
  cpus: number;
  model: string;
  memoryGiB: number;
  node: string;
  loadAverage: number[];
  date: string;
};

/** The machine the figures were taken on: they mean little without it. */
export function machineInfo(): MachineInfo {
  let model = os.cpus()[0]?.model ?? 'unknown';
  try {
    model = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? model;
  } catch {
    // Not Linux: os.cpus() is good enough.
  }
  return {
    cpus: os.availableParallelism(),
    model,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
    date: new Date().toISOString(),
  };
}

/** The machine in a few words, as printed beside each budget's ratio: "2 CPUs Intel(R) Xeon(R) Processor". */
export function machineLabel(machine: MachineInfo): string {
  return `${machine.cpus} CPUs ${machine.model}`;
}
