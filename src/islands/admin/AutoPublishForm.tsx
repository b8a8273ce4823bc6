/**
 * The publish page's auto-publish setting (docs/decisions/208-preview-and-live-build.md): a catalog change
 * made in the console publishes by itself after a quiet period without another change.
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import type { AutoPublish } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { Checkbox } from '../forms/Checkbox.tsx';
import { TextField } from '../forms/TextField.tsx';
import { messageOf, NoticeLine, textOf, useConsoleForm } from './use-console-form.tsx';

export function AutoPublishForm({ slug }: { slug: string }) {
  const [setting, setSetting] = useState<AutoPublish | null>(null);
  const { notice, setNotice, formKey, submit, errorOf } = useConsoleForm();

  useEffect(() => {
    consoleApi
      .autoPublish(slug)
      .then((answer) => setSetting(answer.data))
      .catch((error: unknown) => setNotice({ ok: false, text: messageOf(error) }));
  }, [slug, setNotice]);

  function onSave(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const quiet = textOf(data, 'quiet_seconds').trim();
    void submit(
      () =>
        consoleApi.setAutoPublish(slug, {
          enabled: data.get('enabled') !== null,
          // Not a number goes as null (JSON has no NaN): the API's message names the field.
          quiet_seconds: Number(quiet === '' ? Number.NaN : quiet),
        }),
      (answer) => {
        setSetting(answer.data);
        return answer.data.enabled
          ? `Auto-publish is on: a catalog change publishes after ${answer.data.quiet_seconds} s without another.`
          : 'Auto-publish is off.';
      },
    );
  }

  return (
    <section className="console__panel" aria-labelledby="auto-publish">
      <h2 id="auto-publish">Auto-publish</h2>
      <NoticeLine notice={notice} />
      {setting && (
        <form key={formKey} className="console__form" noValidate aria-label="Auto-publish" onSubmit={onSave}>
          <Checkbox name="enabled" label="Publish catalog changes by themselves" defaultChecked={setting.enabled} />
          <TextField
            name="quiet_seconds"
            label="Quiet period, seconds (5–3600)"
            inputMode="numeric"
            defaultValue={String(setting.quiet_seconds)}
            {...errorOf('quiet_seconds')}
          />
          <button type="submit" className="button">
            Save
          </button>
        </form>
      )}
    </section>
  );
}
