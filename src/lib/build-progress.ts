/**
 * How a build's progress reads, the same in `npm run rebuild` and the console's publish page
 * (docs/decisions/202-publishing-builds.md).
 */

import type { Build } from './contract/answers.ts';

/** A `progress` event of `GET /api/admin/builds/{id}/events`. */
export type BuildProgressEvent = { done: number; total: number; elapsed_ms: number; eta_ms: number | null };

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/** "Built 50/412 pages, 3 s elapsed, about 20 s left" (no estimate before the first page). */
export function progressSentence(progress: BuildProgressEvent): string {
  const left = progress.eta_ms === null ? '' : `, about ${seconds(progress.eta_ms)} left`;
  return `Built ${progress.done}/${progress.total} pages, ${seconds(progress.elapsed_ms)} elapsed${left}`;
}

const STATUS_WORDS: Record<Build['status'], string> = {
  building: 'Building',
  ready: 'Ready',
  live: 'Live',
  failed: 'Failed',
  rolled_back: 'Rolled back',
};

/**
 * A build's status as the history shows it. A build that rendered but fell out of the last BUILDS_KEPT
 * had its folder deleted: "Removed", not a "Ready" that offers nothing (docs/decisions/208-preview-and-live-build.md).
 */
export function statusWord(build: Pick<Build, 'status' | 'kept'>): string {
  if (!build.kept && (build.status === 'ready' || build.status === 'rolled_back')) return 'Removed';
  return STATUS_WORDS[build.status];
}

export type ServerEvent = { event: string; data: string };

/** The events of a `text/event-stream` body, as they arrive (`event:` and `data:` fields; comments skipped). */
export async function* serverEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    // On the whole buffer: a CRLF may be cut between two chunks.
    buffer = (buffer + decoder.decode(chunk, { stream: true })).replaceAll('\r\n', '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) yield { event, data: data.join('\n') };
    }
  }
}
