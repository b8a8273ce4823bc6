/**
 * `npm run rebuild`: asks the running `npm start` (PORT) to snapshot the catalog again and switch
 * to it atomically; open tabs pick it up on their next navigation. With no server running it
 * writes the snapshot itself.
 */
import path from 'node:path';
import { readRebuildToken } from '../src/front/rebuild-token.ts';
import { loadConfig } from '../src/server/config.ts';
import { writeSnapshot } from './write-snapshot.ts';

const config = loadConfig();
const port = config.PORT;
const buildsDir = path.resolve(config.BUILDS_DIR);
const token = await readRebuildToken(config.REBUILD_TOKEN, buildsDir);

let response: Response | null = null;
try {
  response = await fetch(`http://127.0.0.1:${port}/api/hooks/rebuild`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
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
  if (text.includes('Rebuild failed')) process.exit(1);
} else {
  console.log(`No storefront answers on port ${port}: writing the snapshot here.`);
  await writeSnapshot(performance.now());
}
