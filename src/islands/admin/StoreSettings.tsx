/**
 * /admin/{store}/settings (owners): the store's title, favicon, custom domain, tax and shipping by
 * destination, policy pages and contact, and low-stock threshold (docs/decisions/203-console-store-settings.md).
 * One form saved with the version it was opened at (a stale save is refused and says so); the favicon is
 * uploaded on its own and saved at once. The API answers with a save at once; static pages with a publish.
 */
import { useCallback, useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import type { ConsoleStoreSettings, PolicyKind } from '../../lib/contract/answers.ts';
import type { StoreSettingsPayload } from '../../lib/contract/payloads.ts';
import { consoleApi, ConsoleError } from '../../lib/api-client/console-api.ts';
import { bpsToPercent, percentToBps } from '../../lib/percent.ts';
import { Field } from '../forms/Field.tsx';
import { TextField } from '../forms/TextField.tsx';
import { OwnerGate } from './StoreGate.tsx';
import { messageOf, NoticeLine, textOf, useConsoleForm, type Notice } from './use-console-form.tsx';

/** What the file picker offers; the server checks the bytes whatever the picker let through. */
const ACCEPT = 'image/png,image/jpeg,image/webp,image/avif';
const POLICIES: { kind: PolicyKind; label: string }[] = [
  { kind: 'shipping', label: 'Shipping policy' },
  { kind: 'returns', label: 'Returns and refunds' },
  { kind: 'privacy', label: 'Privacy policy' },
  { kind: 'terms', label: 'Terms of service' },
];
const PERCENT_MESSAGE = 'must be a percentage from 0 to 100, like 8.25';
const SAVED = 'Saved. The store’s API answers show the new settings now; its static pages after the next publish.';

/** Rows' keys: unique on the page, so a removed row's fields are never given to another. */
let lastKey = 0;
const newKey = () => ++lastKey;

type TaxRow = { key: number; country: string; region: string; rate: string };
type ZoneRow = { key: number; name: string; countries: string; rate: string; free: string };

/** The import's messages name no field ("must be …"): here they follow the field's label. */
function said(label: string, found: { error?: string }): { error?: string } {
  if (!found.error) return {};
  return { error: /^[a-z]/.test(found.error) ? `${label} ${found.error}.` : found.error };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());
/** A whole number as typed, or NaN (sent as null, and answered next to its field). */
const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

type FormProps = {
  slug: string;
  settings: ConsoleStoreSettings;
  saved: boolean;
  onSaved(settings: ConsoleStoreSettings): void;
};

function SettingsForm({ slug, settings, saved, onSaved }: FormProps) {
  const { notice, submit, errorOf, errorUnder } = useConsoleForm(saved ? { ok: true, text: SAVED } : null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(settings.version);
  const [faviconUrl, setFaviconUrl] = useState(settings.favicon_url ?? '');
  const [savedFavicon, setSavedFavicon] = useState(settings.favicon_url);
  const [taxRows, setTaxRows] = useState<TaxRow[]>(() =>
    settings.tax_rates.map((r) => ({
      key: newKey(),
      country: r.country,
      region: r.region ?? '',
      rate: bpsToPercent(r.rate_bps),
    })),
  );
  const [zoneRows, setZoneRows] = useState<ZoneRow[]>(() =>
    settings.shipping_zones.map((z) => ({
      key: newKey(),
      name: z.name,
      countries: z.countries.join(', '),
      rate: z.rate,
      free: z.free_shipping_threshold ?? '',
    })),
  );

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const local: Record<string, string[]> = {};
    const rate = (field: string, typed: string) => {
      const bps = percentToBps(typed);
      if (bps === null) local[field] = [PERCENT_MESSAGE];
      return bps ?? 0;
    };
    const payload: StoreSettingsPayload = {
      version,
      title: textOf(data, 'title'),
      favicon_url: orNull(textOf(data, 'favicon_url')),
      custom_domain: orNull(textOf(data, 'custom_domain')),
      contact_email: orNull(textOf(data, 'contact_email')),
      low_stock_threshold: wholeNumber(textOf(data, 'low_stock_threshold')),
      tax_rate_bps: rate('tax_rate_bps', textOf(data, 'tax_rate')),
      tax_rates: taxRows.map((row, i) => ({
        country: textOf(data, `tax-country-${row.key}`),
        region: orNull(textOf(data, `tax-region-${row.key}`)),
        rate_bps: rate(`tax_rates.${i}.rate_bps`, textOf(data, `tax-rate-${row.key}`)),
      })),
      shipping_flat: textOf(data, 'shipping_flat').trim(),
      free_shipping_threshold: orNull(textOf(data, 'free_shipping_threshold')),
      shipping_zones: zoneRows.map((row) => ({
        name: textOf(data, `zone-name-${row.key}`),
        countries: textOf(data, `zone-countries-${row.key}`)
          .split(/[\s,]+/)
          .filter(Boolean),
        rate: textOf(data, `zone-rate-${row.key}`).trim(),
        free_shipping_threshold: orNull(textOf(data, `zone-free-${row.key}`)),
      })),
      policies: Object.fromEntries(
        POLICIES.flatMap(({ kind }) => {
          const text = textOf(data, `policy-${kind}`);
          return text.trim() === '' ? [] : [[kind, text]];
        }),
      ),
    };
    setBusy(true);
    await submit(
      () => {
        const first = Object.values(local)[0]?.[0];
        // Refused here as the server refuses: the same messages next to the same fields.
        if (first) throw new ConsoleError(422, 'Sorry, not all fields are filled out correctly.', local);
        return consoleApi.saveSettings(slug, payload);
      },
      (answer) => {
        onSaved(answer.data);
        return null;
      },
    );
    setBusy(false);
  }

  return (
    <>
      <FaviconUpload
        slug={slug}
        url={savedFavicon}
        onUploaded={(next) => {
          // Adopted only when the upload is the one change since the form was opened; else the form is stale.
          if (next.version !== version + 1) return false;
          setVersion(next.version);
          setFaviconUrl(next.favicon_url ?? '');
          setSavedFavicon(next.favicon_url);
          return true;
        }}
      />
      <form className="console__form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Store settings">
        <fieldset className="console__fieldset console__form">
          <legend>Store</legend>
          <TextField
            name="title"
            label="Title"
            rules="required"
            defaultValue={settings.title}
            maxLength={200}
            {...said('Title', errorOf('title'))}
          />
          <TextField
            name="contact_email"
            label="Contact email"
            type="email"
            hint="Shown in every page’s footer; leave empty for none."
            defaultValue={settings.contact_email ?? ''}
            {...said('Contact email', errorOf('contact_email'))}
          />
          <TextField
            name="custom_domain"
            label="Custom domain"
            hint="The store’s own host name, like shop.example.com; leave empty for none. Its DNS must point at this site."
            defaultValue={settings.custom_domain ?? ''}
            {...said('Custom domain', errorOf('custom_domain'))}
          />
          <TextField
            name="favicon_url"
            label="Favicon URL"
            hint="A path of this site or an http(s) URL; or upload an image above."
            value={faviconUrl}
            onValueChange={setFaviconUrl}
            {...said('Favicon URL', errorOf('favicon_url'))}
          />
          <TextField
            name="low_stock_threshold"
            label="Low-stock threshold"
            hint="Product pages say “Only N left” at or below this stock, and the product list flags it; 0 never."
            inputMode="numeric"
            defaultValue={String(settings.low_stock_threshold)}
            {...said('Low-stock threshold', errorOf('low_stock_threshold'))}
          />
        </fieldset>

        <fieldset className="console__fieldset console__form">
          <legend>Tax</legend>
          <TextField
            name="tax_rate"
            label="Tax rate where no rate below applies, %"
            inputMode="decimal"
            defaultValue={bpsToPercent(settings.tax_rate_bps)}
            {...said('Tax rate', errorOf('tax_rate_bps'))}
          />
          <GroupError {...said('Tax rates:', errorOf('tax_rates'))} />
          {taxRows.map((row, i) => (
            <div key={row.key} className="console__panel console__form" role="group" aria-label={`Tax rate ${i + 1}`}>
              <TextField
                name={`tax-country-${row.key}`}
                label={`Country of rate ${i + 1} (two letters)`}
                defaultValue={row.country}
                maxLength={2}
                {...said('Country', errorOf(`tax_rates.${i}.country`))}
              />
              <TextField
                name={`tax-region-${row.key}`}
                label={`State or province of rate ${i + 1} (code, optional)`}
                defaultValue={row.region}
                {...said('Region', errorOf(`tax_rates.${i}.region`))}
              />
              <TextField
                name={`tax-rate-${row.key}`}
                label={`Rate ${i + 1}, %`}
                inputMode="decimal"
                defaultValue={row.rate}
                {...said('Rate', errorUnder(`tax_rates.${i}.rate_bps`))}
              />
              <button
                type="button"
                className="button"
                onClick={() => setTaxRows((rows) => rows.filter((r) => r.key !== row.key))}
              >
                Remove rate {i + 1}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="button"
            onClick={() => setTaxRows((rows) => [...rows, { key: newKey(), country: '', region: '', rate: '' }])}
          >
            Add a tax rate
          </button>
        </fieldset>

        <fieldset className="console__fieldset console__form">
          <legend>Shipping</legend>
          <TextField
            name="shipping_flat"
            label="Shipping fee where no zone applies, $"
            inputMode="decimal"
            defaultValue={settings.shipping_flat}
            {...said('Shipping fee', errorOf('shipping_flat'))}
          />
          <TextField
            name="free_shipping_threshold"
            label="Free shipping from, $ (optional)"
            inputMode="decimal"
            defaultValue={settings.free_shipping_threshold ?? ''}
            {...said('Free shipping from', errorOf('free_shipping_threshold'))}
          />
          <GroupError {...said('Zones:', errorOf('shipping_zones'))} />
          {zoneRows.map((row, i) => (
            <div key={row.key} className="console__panel console__form" role="group" aria-label={`Zone ${i + 1}`}>
              <TextField
                name={`zone-name-${row.key}`}
                label={`Name of zone ${i + 1}`}
                defaultValue={row.name}
                maxLength={100}
                {...said('Name', errorOf(`shipping_zones.${i}.name`))}
              />
              <TextField
                name={`zone-countries-${row.key}`}
                label={`Countries of zone ${i + 1}`}
                hint="Two-letter codes separated by commas (US, CA), or * for every country no other zone lists."
                defaultValue={row.countries}
                {...said('Countries', errorUnder(`shipping_zones.${i}.countries`))}
              />
              <TextField
                name={`zone-rate-${row.key}`}
                label={`Fee of zone ${i + 1}, $`}
                inputMode="decimal"
                defaultValue={row.rate}
                {...said('Fee', errorOf(`shipping_zones.${i}.rate`))}
              />
              <TextField
                name={`zone-free-${row.key}`}
                label={`Free shipping in zone ${i + 1} from, $ (optional)`}
                inputMode="decimal"
                defaultValue={row.free}
                {...said('Free shipping from', errorOf(`shipping_zones.${i}.free_shipping_threshold`))}
              />
              <button
                type="button"
                className="button"
                onClick={() => setZoneRows((rows) => rows.filter((r) => r.key !== row.key))}
              >
                Remove zone {i + 1}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="button"
            onClick={() =>
              setZoneRows((rows) => [...rows, { key: newKey(), name: '', countries: '', rate: '', free: '' }])
            }
          >
            Add a shipping zone
          </button>
        </fieldset>

        <fieldset className="console__fieldset console__form">
          <legend>Policy pages</legend>
          <p className="console__hint">
            HTML; scripts, styles and unknown tags are removed when saved. An empty policy has no page.
          </p>
          {POLICIES.map(({ kind, label }) => (
            <Field key={kind} label={`${label} (HTML)`} {...said(label, errorOf(`policies.${kind}`))}>
              {(aria) => (
                <textarea
                  {...aria}
                  name={`policy-${kind}`}
                  rows={6}
                  defaultValue={settings.policies[kind] ?? ''}
                  className="sf-field__input console__textarea"
                />
              )}
            </Field>
          ))}
        </fieldset>

        <NoticeLine notice={notice}>
          {notice?.ok && (
            <a href={`/admin/${encodeURIComponent(slug)}/publish`}>Publish to show this on the storefront</a>
          )}
          {notice?.status === 409 && (
            <button type="button" className="button" onClick={() => location.reload()}>
              Reload the settings
            </button>
          )}
        </NoticeLine>
        <button type="submit" className="button button--primary" disabled={busy}>
          Save settings
        </button>
      </form>
    </>
  );
}

/** A message about a list as a whole (one rate per country, one zone per country). */
function GroupError({ error }: { error?: string }) {
  return error ? <p className="sf-field__error">{error}</p> : null;
}

/** The favicon's own upload: checked by the server as product images are, and saved at once. */
function FaviconUpload({
  slug,
  url,
  onUploaded,
}: {
  slug: string;
  url: string | null;
  onUploaded(settings: ConsoleStoreSettings): boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  async function start(file: File | undefined) {
    if (!file) return;
    setNotice(null);
    setProgress(0);
    try {
      const answer = await consoleApi.uploadFavicon(slug, file, setProgress);
      setNotice(
        onUploaded(answer.data)
          ? { ok: true, text: `${file.name} is the store’s favicon now.` }
          : {
              ok: false,
              status: 409,
              text: 'The favicon is saved, but someone else changed the settings meanwhile. Reload the page to see their changes.',
            },
      );
    } catch (error) {
      setNotice({ ok: false, text: messageOf(error) });
    }
    setProgress(null);
  }

  return (
    <section className="console__panel console__upload" aria-label="Favicon">
      <h2>Favicon</h2>
      {url && <img src={url} alt="The current favicon" width={32} height={32} />}
      <p id={hintId} className="console__hint">
        A square PNG, JPEG, WebP or AVIF image, 16 px or more a side. It is saved as soon as it is uploaded.
      </p>
      <p>
        <button type="button" className="button" aria-describedby={hintId} onClick={() => input.current?.click()}>
          Upload a favicon
        </button>
      </p>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        data-testid="favicon-file"
        onChange={(event) => {
          void start(event.currentTarget.files?.[0]);
          event.currentTarget.value = '';
        }}
      />
      {progress !== null && <progress value={progress} max={1} aria-label="Favicon upload" />}
      <NoticeLine notice={notice} />
    </section>
  );
}

function Settings({ slug }: { slug: string }) {
  const [settings, setSettings] = useState<ConsoleStoreSettings | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // A new key after a save puts the saved values (and the new version) into the form.
  const [saves, setSaves] = useState(0);

  const load = useCallback(() => {
    consoleApi
      .settings(slug)
      .then((answer) => setSettings(answer.data))
      .catch((error: unknown) => setFailure(messageOf(error)));
  }, [slug]);
  useEffect(load, [load]);

  if (failure)
    return (
      <div className="alert alert--error" role="alert">
        {failure}
      </div>
    );
  if (!settings) return <p role="status">Loading…</p>;
  return (
    <SettingsForm
      key={saves}
      slug={slug}
      settings={settings}
      saved={saves > 0}
      onSaved={(next) => {
        setSettings(next);
        setSaves((n) => n + 1);
      }}
    />
  );
}

export default function StoreSettings({ slug }: { slug: string }) {
  return (
    <OwnerGate slug={slug}>
      {(store) => (
        <>
          <h1>Settings of {store.title}</h1>
          <Settings slug={slug} />
        </>
      )}
    </OwnerGate>
  );
}
