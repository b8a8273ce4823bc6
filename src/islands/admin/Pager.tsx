/** Previous and next buttons of a console list that the API answers a page at a time (`meta`). */
import type { Many } from '../../lib/contract/answers.ts';

/** The number of pages of a list answer (1 for an empty one). */
export const pagesOf = (answer: Pick<Many<unknown>, 'meta'>) =>
  Math.max(1, Math.ceil((answer.meta?.total ?? 0) / (answer.meta?.perPage ?? 1)));

type PagerProps = {
  /** What the buttons page through, e.g. "Pages of products". */
  label: string;
  page: number;
  pages: number;
  onPage(page: number): void;
  previous?: string;
  next?: string;
};

export function Pager({ label, page, pages, onPage, previous = 'Previous page', next = 'Next page' }: PagerProps) {
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav aria-label={label} className="console__links">
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {previous}
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" className="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {next}
      </button>
    </nav>
  );
}
