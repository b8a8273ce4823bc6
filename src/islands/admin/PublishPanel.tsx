/**
 * /admin/{store}/publish (owners and editors): publish the store's pages or build a preview, watch the
 * build's progress live (Server-Sent Events), and from the recent builds preview a kept one, make it live
 * or roll back to it (docs/decisions/202-publishing-builds.md, 208-preview-and-live-build.md).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { progressSentence, statusWord, type BuildProgressEvent } from '../../lib/build-progress.ts';
import type { Build } from '../../lib/contract/answers.ts';
import { consoleApi, ConsoleError } from '../../lib/api-client/console-api.ts';
import { StaffGate, type ConsoleStore } from './StoreGate.tsx';
import { AutoPublishForm } from './AutoPublishForm.tsx';

type Notice = { ok: boolean; text: string };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What a build changed against the build live when it rendered. */
function changesText(build: Build): string {
  if (!build.changes) return '—';
  const { added, changed, removed } = build.changes;
  return `${added} new, ${changed} changed, ${removed} removed`;
}

type HistoryProps = {
  builds: Build[];
  slug: string;
  busy: boolean;
  onGoLive: (build: Build, rollback: boolean) => void;
};

function History({ builds, slug, busy, onGoLive }: HistoryProps) {
  if (builds.length === 0) return <p>Nothing has been published yet.</p>;
  const live = builds.find((build) => build.status === 'live');
  return (
    <table className="console__table">
      <caption>Recent builds, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Status</th>
          <th scope="col">By</th>
          <th scope="col">Pages</th>
          <th scope="col">Changes</th>
          <th scope="col">Time</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {builds.map((build) => {
          const started = new Date(build.started_at).toLocaleString();
          // Going back to a build older than the live one is a rollback (ADR 208).
          const rollback = live !== undefined && build.started_at < live.started_at;
          const canGoLive = build.kept && build.status !== 'live';
          return (
            <tr key={build.id}>
              <td data-label="Started">
                <time dateTime={build.started_at}>{started}</time>
              </td>
              <td data-label="Status">
                {statusWord(build)}
                {build.error && <span className="console__hint"> ({build.error})</span>}
              </td>
              <td data-label="By">{build.requested_by}</td>
              <td data-label="Pages">{build.pages ?? '—'}</td>
              <td data-label="Changes">{changesText(build)}</td>
              <td data-label="Time">
                {/* A no-break space: the figure and its unit stay on one line. */}
                {build.duration_ms === null ? '—' : `${(build.duration_ms / 1000).toFixed(1)}\u00a0s`}
              </td>
              <td data-label="Actions">
                {canGoLive ? (
                  <span className="console__links">
                    <a href={consoleApi.previewUrl(slug, build.id)} aria-label={`Preview the build of ${started}`}>
                      Preview
                    </a>
                    <button
                      type="button"
                      className="button"
                      disabled={busy}
                      aria-label={`${rollback ? 'Roll back' : 'Go live'} to the build of ${started}`}
                      onClick={() => onGoLive(build, rollback)}
                    >
                      {rollback ? 'Roll back' : 'Go live'}
                    </button>
                  </span>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Publishing({ store }: { store: ConsoleStore }) {
  const [builds, setBuilds] = useState<Build[] | null>(null);
  const [following, setFollowing] = useState<string | null>(null);
  const [progress, setProgress] = useState<BuildProgressEvent | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const events = useRef<EventSource | null>(null);

  const loadHistory = useCallback(
    () =>
      consoleApi
        .builds(store.slug)
        .then((answer) => {
          setBuilds(answer.data);
          return answer.data;
        })
        .catch((error: unknown) => {
          setNotice({ ok: false, text: message(error) });
          return [];
        }),
    [store.slug],
  );

  const follow = useCallback(
    (id: string) => {
      events.current?.close();
      setFollowing(id);
      setProgress(null);
      const source = new EventSource(consoleApi.buildEventsUrl(id));
      events.current = source;
      const end = (notice: Notice) => {
        source.close();
        setFollowing(null);
        setNotice(notice);
        void loadHistory();
      };
      source.addEventListener('progress', (event: MessageEvent<string>) =>
        setProgress(JSON.parse(event.data) as BuildProgressEvent),
      );
      source.addEventListener('done', (event: MessageEvent<string>) => {
        const build = JSON.parse(event.data) as Build;
        end({
          ok: true,
          text:
            build.status === 'live'
              ? `Published: ${build.pages ?? 0} pages are live.`
              : `Ready to preview: ${build.pages ?? 0} pages (${changesText(build)}). Preview it, then make it live.`,
        });
      });
      source.addEventListener('failed', (event: MessageEvent<string>) => {
        const build = JSON.parse(event.data) as Build;
        end({ ok: false, text: `The build failed, so the live pages did not change: ${build.error ?? ''}` });
      });
      // The stream ends after its last event; an error before that is a lost connection or a build not ours.
      source.onerror = () => end({ ok: false, text: 'Lost track of the build. Reload the page to see how it went.' });
    },
    [loadHistory],
  );

  useEffect(() => {
    void loadHistory().then((list) => {
      const running = list.find((build) => build.status === 'building');
      if (running) follow(running.id);
    });
    return () => events.current?.close();
  }, [loadHistory, follow]);

  const [switching, setSwitching] = useState(false);

  async function goLive(build: Build, rollback: boolean) {
    setNotice(null);
    setSwitching(true);
    try {
      await consoleApi.goLive(store.slug, build.id);
      const started = new Date(build.started_at).toLocaleString();
      setNotice({
        ok: true,
        text: `${rollback ? 'Rolled back: the build of' : 'Live: the build of'} ${started} is live.`,
      });
    } catch (error) {
      setNotice({ ok: false, text: message(error) });
    } finally {
      setSwitching(false);
      void loadHistory();
    }
  }

  async function publish(goLive: boolean) {
    setNotice(null);
    try {
      const started = await consoleApi.publish(store.slug, goLive);
      follow(started.data.id);
    } catch (error) {
      if (error instanceof ConsoleError && error.status === 409) {
        setNotice({ ok: true, text: error.message });
        if (error.build) follow(error.build.id);
      } else setNotice({ ok: false, text: message(error) });
    }
  }

  return (
    <>
      <p>
        Publishing renders the pages your changes show on (the others are reused from the live build) and makes the new
        build live once every page is in it. A preview build stops before going live: browse it, then make it live.
      </p>
      <p className="console__links">
        <button
          type="button"
          className="button button--primary"
          disabled={following !== null}
          onClick={() => void publish(true)}
        >
          {following ? 'Publishing…' : 'Publish'}
        </button>
        <button type="button" className="button" disabled={following !== null} onClick={() => void publish(false)}>
          Build preview
        </button>
        <a href={`/admin/${store.slug}/preview`}>End preview</a>
      </p>
      {following && (
        <div className="console__panel">
          <label htmlFor="build-progress">Build progress</label>
          <progress
            id="build-progress"
            className="console__progress"
            max={Math.max(progress?.total ?? 0, 1)}
            {...(progress && progress.total > 0 ? { value: progress.done } : {})}
          />
          <p role="status">{progress && progress.total > 0 ? progressSentence(progress) : 'Listing the pages…'}</p>
        </div>
      )}
      {notice && (
        <div className={notice.ok ? 'alert' : 'alert alert--error'} role={notice.ok ? 'status' : 'alert'}>
          {notice.text}
        </div>
      )}
      {builds === null ? (
        <p role="status">Loading…</p>
      ) : (
        <History
          builds={builds}
          slug={store.slug}
          busy={switching || following !== null}
          onGoLive={(build, rollback) => void goLive(build, rollback)}
        />
      )}
      <AutoPublishForm slug={store.slug} />
    </>
  );
}

export default function PublishPanel({ slug }: { slug: string }) {
  return (
    <StaffGate slug={slug}>
      {(store) => (
        <>
          <h1>Publish {store.title}</h1>
          <Publishing store={store} />
        </>
      )}
    </StaffGate>
  );
}
