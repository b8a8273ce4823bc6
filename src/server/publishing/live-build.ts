/**
 * The installation's live build in the database (docs/decisions/208-preview-and-live-build.md): one
 * `live_build` row, and on PostgreSQL a notification on every switch that each `npm start` instance
 * listens for, so all of them serve the new build within a second, and one when a build is ready, so an
 * instance with a builds folder of its own fetches it before it may go live (ADR 212). PGlite is one
 * process: the process that switches is the only one serving.
 */
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../http/context.ts';

export const LIVE_BUILD_CHANNEL = 'live_build';
/**
 * Carries the id of a build that became ready (rendered, and in the builds bucket when there is one), or one
 * about to go live: every instance with a builds folder of its own fetches it and says so on `build_held`.
 */
export const READY_BUILD_CHANNEL = 'build_ready';
/** Carries `{instance} {id}`: an instance holds that build whole (build-holders.ts). */
export const HELD_BUILD_CHANNEL = 'build_held';
/** How long a lost listening connection waits before connecting again (it then reads the row: a switch heard late). */
const RECONNECT_MS = 1000;

export type LiveBuild = { id: string; version: number };

export async function readLiveBuild(db: Kysely<Database>): Promise<LiveBuild | null> {
  const row = await db.selectFrom('live_build').select(['build_id', 'version']).executeTakeFirst();
  return row ? { id: row.build_id, version: row.version } : null;
}

/**
 * Calls `onSwitch` after every switch of any instance, and once connected (so a switch made while this
 * connection was down is not missed): it reads the `live_build` row. Calls `onReady` with the id of each
 * build that becomes ready or is about to go live on any instance (one missed while disconnected is fetched
 * when it goes live), and `onHeld` with each `build_held` payload. The connection is named
 * `applicationName` (how build-holders.ts finds the instances that fetch). Answers the stop.
 */
export function listenForLiveBuild(
  databaseUrl: string,
  {
    onSwitch,
    onReady,
    onHeld,
    applicationName,
  }: {
    onSwitch: () => void;
    onReady?: (id: string) => void;
    onHeld?: (payload: string) => void;
    applicationName?: string;
  },
  logger: Logger,
): { ready: Promise<void>; stop(): Promise<void> } {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const tell = () => {
    if (!stopped) onSwitch();
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: databaseUrl,
      ...(applicationName ? { application_name: applicationName } : {}),
    });
    next.on('notification', ({ channel, payload }) => {
      if (channel === LIVE_BUILD_CHANNEL) tell();
      else if (stopped || !payload) return;
      else if (channel === READY_BUILD_CHANNEL) onReady?.(payload);
      else if (channel === HELD_BUILD_CHANNEL) onHeld?.(payload);
    });
    next.on('error', (error) => {
      logger.warn({ err: error }, 'live build notifications lost; connecting again');
      void next.end().catch(() => {});
      if (client === next) client = null;
      if (!stopped) retry = setTimeout(reconnect, RECONNECT_MS);
    });
    await next.connect();
    await next.query(`listen ${LIVE_BUILD_CHANNEL}`);
    if (onReady) await next.query(`listen ${READY_BUILD_CHANNEL}`);
    if (onHeld) await next.query(`listen ${HELD_BUILD_CHANNEL}`);
    if (stopped) {
      await next.end();
      return;
    }
    client = next;
    tell();
  };
  const reconnect = () =>
    void connect().catch((error: unknown) => {
      logger.warn({ err: error }, 'live build notifications not connected; trying again');
      if (!stopped) retry = setTimeout(reconnect, RECONNECT_MS);
    });
  return {
    ready: connect(),
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
