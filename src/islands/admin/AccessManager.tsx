/**
 * /admin/{store}/access (owners of a restricted store): who may enter it. Allowed recipients are added with
 * an emailed link, mailed again, searched, removed or imported from a CSV file; domain tokens are made (shown
 * once, as a link) and revoked (docs/decisions/204-recipients-and-domain-tokens.md).
 */
import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import type { AllowedRecipient, DomainToken, NewDomainToken, RecipientImport } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { EmailField } from '../forms/EmailField.tsx';
import { Field } from '../forms/Field.tsx';
import { TextField } from '../forms/TextField.tsx';
import { validEmailEntry } from '../forms/email-entry.ts';
import { Pager, pagesOf } from './Pager.tsx';
import { OwnerGate } from './StoreGate.tsx';
import { messageOf, NoticeLine, textOf, useConsoleForm } from './use-console-form.tsx';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US');
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function Recipients({ slug }: { slug: string }) {
  const [recipients, setRecipients] = useState<AllowedRecipient[] | null>(null);
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [pages, setPages] = useState(1);
  const [total, setTotal] = useState(0);
  const [attempted, setAttempted] = useState(false);
  const adding = useConsoleForm();
  const listing = useConsoleForm();
  const { setNotice } = listing;

  const load = useCallback(() => {
    consoleApi
      .recipients(slug, query, page)
      .then((answer) => {
        setRecipients(answer.data);
        setPages(pagesOf(answer));
        setTotal(answer.meta?.total ?? answer.data.length);
      })
      .catch((error: unknown) => setNotice({ ok: false, text: messageOf(error) }));
  }, [slug, query, page, setNotice]);
  useEffect(load, [load]);

  async function onAdd(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = validEmailEntry(event.currentTarget);
    if (email === null) {
      setAttempted(true);
      return;
    }
    await adding.submit(
      () => consoleApi.addRecipient(slug, email),
      (answer) => {
        setAttempted(false);
        load();
        return `${answer.data.email} is on the list. Their invitation is on its way.`;
      },
    );
  }

  function onSearch(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setPage(1);
    setQuery(textOf(new FormData(event.currentTarget), 'q').trim());
  }

  const act = (action: () => Promise<unknown>, done: string) =>
    listing.submit(action, () => {
      load();
      return done;
    });

  return (
    <section aria-labelledby="recipients-heading">
      <h2 id="recipients-heading">Allowed recipients</h2>
      <p className="console__hint">
        Each recipient gets a link of their own. Opening it lets that browser in; removing them shuts it out at once.
      </p>
      <form
        key={adding.formKey}
        className="console__form"
        noValidate
        aria-label="Add a recipient"
        onSubmit={(event) => void onAdd(event)}
      >
        <EmailField autoComplete="off" showErrors={attempted} {...adding.errorOf('email')} />
        <button type="submit" className="button button--primary">
          Add and send invitation
        </button>
      </form>
      <NoticeLine notice={adding.notice} />
      <form role="search" aria-label="Recipients" className="console__form" noValidate onSubmit={onSearch}>
        <TextField name="q" label="Search by email" type="search" autoComplete="off" maxLength={254} />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <NoticeLine notice={listing.notice} />
      {recipients === null ? (
        <p role="status">Loading…</p>
      ) : recipients.length === 0 ? (
        <p>{query ? `No recipient matches “${query}”.` : 'No recipients yet.'}</p>
      ) : (
        <>
          <p>{plural(total, 'recipient', 'recipients')}</p>
          <ul className="console__list" aria-label="Allowed recipients">
            {recipients.map((recipient) => (
              <li key={recipient.id} className="console__panel">
                <p>
                  <strong>{recipient.email}</strong>{' '}
                  <span className="console__hint">
                    {recipient.invited_at ? `Invited ${day(recipient.invited_at)}` : 'Not invited by mail'}
                  </span>
                </p>
                <p className="console__links">
                  <button
                    type="button"
                    className="button"
                    aria-label={`Send again: ${recipient.email}`}
                    onClick={() =>
                      void act(
                        () => consoleApi.reinviteRecipient(slug, recipient.id),
                        `The invitation is on its way to ${recipient.email}.`,
                      )
                    }
                  >
                    Send again
                  </button>
                  <button
                    type="button"
                    className="button"
                    aria-label={`Remove: ${recipient.email}`}
                    onClick={() =>
                      void listing.submit(
                        () => consoleApi.removeRecipient(slug, recipient.id),
                        (answer) => {
                          load();
                          return answer.message;
                        },
                      )
                    }
                  >
                    Remove
                  </button>
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
      <Pager label="Pages of recipients" page={page} pages={pages} onPage={setPage} />
      <ImportList slug={slug} onImported={load} />
    </section>
  );
}

/** What a CSV import did, row by row: the rows that need the owner's eye are listed. */
function ImportReport({ report }: { report: RecipientImport }) {
  const problems = [
    ...report.invalid.map((row) => ({
      row: row.row,
      text: `Row ${row.row}: “${row.value}” — ${row.message}`,
    })),
    ...report.duplicates.map((row) => ({
      row: row.row,
      text: `Row ${row.row}: ${row.email} — the same address as row ${row.first_row}.`,
    })),
  ].sort((a, b) => a.row - b.row);
  return (
    <div className={report.invalid.length > 0 ? 'alert alert--error' : 'alert'} role="status">
      <p>
        Added {plural(report.added.length, 'address', 'addresses')}.{' '}
        {report.already_listed.length > 0 &&
          `${plural(report.already_listed.length, 'address was', 'addresses were')} already on the list. `}
        {report.invalid.length > 0 && `${plural(report.invalid.length, 'row is', 'rows are')} not imported.`}
      </p>
      {problems.length > 0 && (
        <ul aria-label="Rows not imported">
          {problems.map((problem) => (
            <li key={problem.row}>{problem.text}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ImportList({ slug, onImported }: { slug: string; onImported(): void }) {
  const [report, setReport] = useState<RecipientImport | null>(null);
  const [busy, setBusy] = useState(false);
  const { notice, formKey, submit, errorOf } = useConsoleForm();

  async function onImport(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get('file');
    setReport(null);
    setBusy(true);
    await submit(
      () =>
        file instanceof File && file.name !== ''
          ? consoleApi.importRecipients(slug, file, () => {})
          : Promise.reject(new Error('Choose a CSV file of email addresses to import.')),
      (answer) => {
        setReport(answer.data);
        onImported();
        return null;
      },
    );
    setBusy(false);
  }

  return (
    <>
      <h3>Import a list</h3>
      <form
        key={formKey}
        className="console__form"
        noValidate
        aria-label="Import a list"
        onSubmit={(event) => void onImport(event)}
      >
        <Field
          label="CSV file of email addresses"
          hint="One address a row; a header row is optional. Imported addresses get no mail: send each an invitation from the list, or they ask for their link on the store’s restricted page."
          {...errorOf('file')}
        >
          {(aria) => <input {...aria} type="file" name="file" accept=".csv,.txt,text/csv,text/plain" />}
        </Field>
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Importing…' : 'Import'}
        </button>
      </form>
      <NoticeLine notice={notice} />
      {report && <ImportReport report={report} />}
    </>
  );
}

function DomainTokens({ slug }: { slug: string }) {
  const [tokens, setTokens] = useState<DomainToken[] | null>(null);
  const [created, setCreated] = useState<NewDomainToken | null>(null);
  const { notice, setNotice, formKey, submit, errorOf } = useConsoleForm();

  const load = useCallback(() => {
    consoleApi
      .domainTokens(slug)
      .then((answer) => setTokens(answer.data))
      .catch((error: unknown) => setNotice({ ok: false, text: messageOf(error) }));
  }, [slug, setNotice]);
  useEffect(load, [load]);

  async function onCreate(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const label = textOf(new FormData(event.currentTarget), 'label');
    setCreated(null);
    await submit(
      () => consoleApi.createDomainToken(slug, label),
      (answer) => {
        setCreated(answer.data);
        load();
        return null;
      },
    );
  }

  return (
    <section aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Domain tokens</h2>
      <p className="console__hint">
        A link with a domain token lets in anyone who opens it, for example from a partner’s intranet. Revoke it to shut
        out every browser it let in.
      </p>
      <form
        key={formKey}
        className="console__form"
        noValidate
        aria-label="Create a domain token"
        onSubmit={(event) => void onCreate(event)}
      >
        <TextField name="label" label="Label (who the link is for)" maxLength={100} {...errorOf('label')} />
        <button type="submit" className="button button--primary">
          Create token
        </button>
      </form>
      {created && (
        <div className="alert" role="status">
          Token created. Its link, shown only now:{' '}
          <strong>
            <code data-testid="new-token-link">{created.link}</code>
          </strong>
        </div>
      )}
      <NoticeLine notice={notice} />
      {tokens === null ? (
        <p role="status">Loading…</p>
      ) : tokens.length === 0 ? (
        <p>No domain tokens.</p>
      ) : (
        <ul className="console__list" aria-label="Domain tokens">
          {tokens.map((token) => (
            <li key={token.id} className="console__panel">
              <p>
                <code>{token.token}</code> {token.label && <strong>{token.label}</strong>}{' '}
                <span className="console__hint">Created {day(token.created_at)}</span>
              </p>
              <button
                type="button"
                className="button"
                aria-label={`Revoke: ${token.label || token.token}`}
                onClick={() =>
                  void submit(
                    () => consoleApi.revokeDomainToken(slug, token.id),
                    (answer) => {
                      setCreated(null);
                      load();
                      return answer.message;
                    },
                  )
                }
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function AccessManager({ slug }: { slug: string }) {
  return (
    <OwnerGate slug={slug}>
      {(store) => (
        <>
          <h1>Access to {store.title}</h1>
          {store.restricted ? (
            <>
              <Recipients slug={slug} />
              <DomainTokens slug={slug} />
            </>
          ) : (
            <p>
              {store.title} is public: anyone may open it, so it has no allowed recipients or domain tokens.{' '}
              <a href="/admin">Your stores</a>
            </p>
          )}
        </>
      )}
    </OwnerGate>
  );
}
