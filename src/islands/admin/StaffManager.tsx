/** /admin/{store}/staff (owners): the store's staff, invitations, role changes and removals. */
import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import type { OperatorRole, StaffMember } from '../../lib/contract/answers.ts';
import { consoleApi, ConsoleError } from '../../lib/api-client/console-api.ts';
import { formMessage, type FieldResult } from '../../lib/validation/index.ts';
import { validEmailEntry } from '../forms/email-entry.ts';
import { Field } from '../forms/Field.tsx';
import { FormMessage } from '../forms/FormMessage.tsx';
import { EmailField } from '../forms/EmailField.tsx';
import { OwnerGate } from './StoreGate.tsx';

const roleName = (role: OperatorRole) => (role === 'owner' ? 'Owner' : 'Editor');

function Staff({ slug }: { slug: string }) {
  const [staff, setStaff] = useState<StaffMember[] | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [emailResult, setEmailResult] = useState<FieldResult | undefined>();
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [formKey, setFormKey] = useState(0);

  const load = useCallback(() => {
    consoleApi
      .staff(slug)
      .then((answer) => setStaff(answer.data))
      .catch((error: unknown) =>
        setNotice({ ok: false, text: error instanceof Error ? error.message : String(error) }),
      );
  }, [slug]);
  useEffect(load, [load]);

  async function run(action: () => Promise<unknown>, done: string) {
    setNotice(null);
    try {
      await action();
      setNotice({ ok: true, text: done });
      load();
      return true;
    } catch (error) {
      if (error instanceof ConsoleError) setServerErrors(error.errors);
      setNotice({ ok: false, text: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }

  async function onInvite(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setServerErrors({});
    const role = new FormData(event.currentTarget).get('role') === 'owner' ? 'owner' : 'editor';
    const email = validEmailEntry(event.currentTarget);
    if (email === null) {
      setAttempted(true);
      return;
    }
    if (
      await run(() => consoleApi.invite(slug, email, role), `${email} is invited as ${roleName(role).toLowerCase()}.`)
    ) {
      setAttempted(false);
      setFormKey((key) => key + 1);
    }
  }

  return (
    <>
      <h2>Invite someone</h2>
      <form key={formKey} className="console__form" noValidate onSubmit={(event) => void onInvite(event)}>
        <EmailField
          autoComplete="off"
          showErrors={attempted}
          onValidity={setEmailResult}
          {...(serverErrors.email?.[0] ? { error: serverErrors.email[0] } : {})}
        />
        <Field label="Role">
          {(aria) => (
            <select {...aria} name="role" defaultValue="editor" className="console__select">
              <option value="editor">Editor: catalog, gift cards, publishing</option>
              <option value="owner">Owner: everything, staff and settings too</option>
            </select>
          )}
        </Field>
        <FormMessage message={attempted ? formMessage([emailResult]) : null} />
        <button type="submit" className="button button--primary">
          Send invitation
        </button>
      </form>
      {notice && (
        <div className={notice.ok ? 'alert' : 'alert alert--error'} role={notice.ok ? 'status' : 'alert'}>
          {notice.text}
        </div>
      )}
      <h2>Staff</h2>
      {staff === null ? (
        <p role="status">Loading…</p>
      ) : (
        <ul className="console__staff">
          {staff.map((member) => {
            const other: OperatorRole = member.role === 'owner' ? 'editor' : 'owner';
            // The API refuses to leave a store without an owner (409); the page does not offer it.
            const onlyOwner = member.role === 'owner' && staff.filter((m) => m.role === 'owner').length === 1;
            return (
              <li key={member.id} className="console__panel">
                <p>
                  <strong>{member.email}</strong> {member.you && '(you)'} — {roleName(member.role)}
                </p>
                {onlyOwner ? (
                  <p className="console__hint">The only owner: invite another owner before changing this role.</p>
                ) : (
                  <p className="console__links">
                    <button
                      type="button"
                      className="button"
                      aria-label={`Make ${other}: ${member.email}`}
                      onClick={() =>
                        void run(
                          () => consoleApi.changeRole(slug, member.id, other),
                          `${member.email} is now ${other === 'owner' ? 'an owner' : 'an editor'}.`,
                        )
                      }
                    >
                      Make {other}
                    </button>
                    <button
                      type="button"
                      className="button"
                      aria-label={`Remove: ${member.email}`}
                      onClick={() => void run(() => consoleApi.remove(slug, member.id), `${member.email} is removed.`)}
                    >
                      Remove
                    </button>
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

export default function StaffManager({ slug }: { slug: string }) {
  return (
    <OwnerGate slug={slug}>
      {(store) => (
        <>
          <h1>Staff of {store.title}</h1>
          <Staff slug={slug} />
        </>
      )}
    </OwnerGate>
  );
}
