/** A console list the API answers a page at a time, with a search box: the products and the bundles. */
import { useEffect, useState, type ReactNode, type SubmitEvent } from 'react';
import type { Many } from '../../lib/contract/answers.ts';
import { TextField } from '../forms/TextField.tsx';
import { Pager, pagesOf } from './Pager.tsx';
import { messageOf } from './use-console-form.tsx';

type SearchedListProps<T extends { id: string }> = {
  slug: string;
  /** A console API call: one page of the store's records matching `q` (stable: e.g. `consoleApi.products`). */
  load(slug: string, q: string, page: number): Promise<Many<T>>;
  /** The search box's label, e.g. "Search by name or SKU". */
  searchLabel: string;
  /** The list's accessible name, e.g. "Products". */
  listLabel: string;
  /** What the empty list says, for what was searched ('' for nothing). */
  empty(q: string): string;
  /** One record's content inside its list item. */
  children(item: T): ReactNode;
};

export function SearchedList<T extends { id: string }>(props: SearchedListProps<T>) {
  const { slug, load, listLabel } = props;
  const [query, setQuery] = useState({ q: '', page: 1 });
  const [typed, setTyped] = useState('');
  const [answer, setAnswer] = useState<Many<T> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    load(slug, query.q, query.page)
      .then((next) => {
        setFailure(null);
        setAnswer(next);
      })
      .catch((error: unknown) => setFailure(messageOf(error)));
  }, [slug, load, query]);

  function onSearch(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setQuery({ q: typed.trim(), page: 1 });
  }

  return (
    <>
      <form role="search" className="console__form" noValidate onSubmit={onSearch}>
        <TextField name="q" label={props.searchLabel} type="search" value={typed} onValueChange={setTyped} delay={0} />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {failure && (
        <div className="alert alert--error" role="alert">
          {failure}
        </div>
      )}
      {answer === null ? (
        <p role="status">Loading…</p>
      ) : answer.data.length === 0 ? (
        <p role="status">{props.empty(query.q)}</p>
      ) : (
        <ul className="console__list" aria-label={listLabel}>
          {answer.data.map((item) => (
            <li key={item.id} className="console__panel">
              {props.children(item)}
            </li>
          ))}
        </ul>
      )}
      <Pager
        label={`Pages of ${listLabel.toLowerCase()}`}
        page={query.page}
        pages={answer ? pagesOf(answer) : 1}
        onPage={(page) => setQuery({ ...query, page })}
      />
    </>
  );
}
