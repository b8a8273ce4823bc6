/**
 * `npm run rebuild`: asks the running `npm start` (PORT) for a build of every public store's pages
 * (`POST /api/admin/builds` with the build token), follows its progress and prints the outcome; exits 1
 * when the build failed. Open tabs pick the new build up on their next navigation. With no server
 * running it writes the snapshot itself (docs/decisions/202-publishing-builds.md). Only the pages a change
 * touches are rendered; `-- --full` renders every page (docs/decisions/211-incremental-builds.md).
 */
import path from 'node:path';
import { progressSentence, serverEvents, type BuildProgressEvent } from '../src/lib/build-progress.ts';
import type { Build, BuildStarted, ErrorBody } from '../src/lib/contract/answers.ts';
import { readRebuildToken } from '../src/front/rebuild-token.ts';
import { loadConfig } from '../src/server/config.ts';
import { writeSnapshot } from './write-snapshot.ts';

const config = loadConfig();
const api = `http://127.0.0.1:${config.PORT}/api/admin`;
const token = await readRebuildToken(config.REBUILD_TOKEN, path.resolve(config.BUILDS_DIR));
const authorization = `Bearer ${token}`;
const full = process.argv.includes('--full');

let started: Response | null;
try {
  started = await fetch(`${api}/builds`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ full }),
  });
} catch {
  started = null;
}
if (!started) {
  console.log(`No storefront answers on port ${config.PORT}: writing the snapshot here.`);
  await writeSnapshot(performance.now(), full);
  process.exit(0);
}

let id: string;
if (started.status === 202) {
  id = ((await started.json()) as { data: BuildStarted }).data.id;
  console.log(`Build ${id} started.`);
} else if (started.status === 409) {
  const refusal = (await started.json()) as ErrorBody;
  if (!refusal.build) throw new Error(`Rebuild refused (409): ${refusal.message}`);
  id = refusal.build.id;
  console.log(`Build ${id} is already running; following it.`);
} else {
  console.error(`Rebuild refused (${started.status}): ${await started.text()}`);
  process.exit(1);
}

const events = await fetch(`${api}/builds/${encodeURIComponent(id)}/events`, { headers: { authorization } });
if (!events.ok || !events.body) {
  console.error(`Could not follow build ${id} (${events.status}): ${await events.text()}`);
  process.exit(1);
}
let printedAt = Number.NEGATIVE_INFINITY;
for await (const event of serverEvents(events.body)) {
  if (event.event === 'progress') {
    const progress = JSON.parse(event.data) as BuildProgressEvent;
    // Before the pages are listed there is nothing to count.
    if (progress.total === 0) continue;
    // About once a second, and the last page: a big build reports every quarter second.
    if (progress.elapsed_ms - printedAt >= 1000 || (progress.total > 0 && progress.done === progress.total)) {
      printedAt = progress.elapsed_ms;
      console.log(progressSentence(progress));
    }
    continue;
  }
  const build = JSON.parse(event.data) as Build;
  if (event.event === 'done') {
    console.log(
      `Live build ${build.id}: ${build.pages ?? 0} pages in ${((build.duration_ms ?? 0) / 1000).toFixed(1)} s`,
    );
    process.exit(0);
  }
  console.error(`Build ${build.id} failed: ${build.error ?? 'unknown error'}. The live build did not change.`);
  process.exit(1);
}
console.error(`The server stopped answering before build ${id} finished.`);
process.exit(1);
