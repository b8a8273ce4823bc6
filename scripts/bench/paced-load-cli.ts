/**
 * Runs one paced load (scripts/bench/paced-load.ts) in a process of its own and prints its figures as
 * JSON: the generator's timing must not share an event loop and a heap with the bench that started it.
 */
import { pacedLoad, type PacedOptions, type PacedTarget } from './paced-load.ts';

const { baseUrl, target, options } = JSON.parse(process.argv[2] ?? '{}') as {
  baseUrl: string;
  target: PacedTarget;
  options: PacedOptions;
};
process.stdout.write(JSON.stringify(await pacedLoad(baseUrl, target, options)));
