/**
 * `npm run rebuild`: asks the running `npm start` (PORT) to snapshot the catalog again and switch
 * to it atomically; open tabs pick it up on their next navigation. With no server running it
 * writes the snapshot itself.
 */
import path from 'node:path';
import { readRebuildToken } from '../src/front/rebuild-token.ts';
import { startStorefront } from '../src/front/start-storefront.ts';
import { progressLine } from './progress-line.ts';

const port = Number(process.env.PORT ?? 4321);
const buildsDir = path.resolve(process.env.BUILDS_DIR ?? 'builds');
const token = await readRebuildToken(process.env, buildsDir);

let response: Response | null = null;
try {
  response = await fetch(`http://127.0.0.1:${port}/api/hooks/rebuild`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
} catch {
  response = null;
}

if (response) {
  if (!response.ok || !response.body) {
    console.error(`Rebuild refused (${response.status}): ${await response.text()}`);
    process.exit(1);
  }
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body) {
    const part = decoder.decode(chunk, { stream: true });
    text += part;
    process.stdout.write(part);
  }
  if (/Rebuild failed/.test(text)) process.exit(1);
} else {
  console.log(`No storefront answers on port ${port}: writing the snapshot here.`);
  const started = performance.now();
  const progress = progressLine('Snapshot');
  const storefront = await startStorefront({ port: 0, host: '127.0.0.1', snapshotOnStart: true, onProgress: progress.update, log: progress.log });
  await storefront.close();
  progress.done((performance.now() - started) / 1000);
}
