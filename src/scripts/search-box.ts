/**
 * The header search's instant results (docs/decisions/191-search-engine.md), loaded by the boot
 * script the first time the field gets focus: until then the field is a plain GET form to the
 * results page. An ARIA 1.2 combobox: the input keeps focus, arrows move `aria-activedescendant`
 * through a listbox of results (image, name, price) and a last "all results" option, Enter opens
 * the active option (else submits the form), Escape closes.
 */
import { browserRequester } from '../lib/api-client/requester.ts';
import { searchListings } from '../lib/api-client/search.ts';
import type { Image, Listing } from '../lib/contract/answers.ts';
import { formatCurrency } from '../lib/money.ts';
import { storeLinks } from '../lib/store-links.ts';
import { $linkBase, $storeSlug } from '../stores/store.ts';

/** Results shown while typing; the results page has the rest. */
const INSTANT_COUNT = 6;
/** Typing pauses this long before a query is sent: one query per word typed, not per key. */
const TYPING_PAUSE_MS = 120;
const LISTBOX_ID = 'site-search-listbox';

type Option = { element: HTMLElement; href: string };

/**
 * The image a result shows: the default one, else the first. catalog-card.ts's `primaryImage` says the
 * same; importing it would split that module out of the product page's chunks (its 12 KB budget).
 */
const shownImage = ({ attributes: a }: Listing): Image | undefined =>
  a.images.find((image) => image.id === a.default_e_commerce_image_id) ?? a.images[0];

function optionElement(id: string, href: string, children: Node[]): HTMLElement {
  const li = document.createElement('li');
  li.id = id;
  li.setAttribute('role', 'option');
  li.setAttribute('aria-selected', 'false');
  li.className = 'site-search__option';
  li.dataset.href = href;
  li.append(...children);
  return li;
}

function resultOption(entry: Listing, index: number, href: string): HTMLElement {
  const image = shownImage(entry);
  const picture = document.createElement(image ? 'img' : 'span');
  picture.className = 'site-search__image';
  if (picture instanceof HTMLImageElement && image) {
    // Decorative: the name beside it says what it is.
    picture.alt = '';
    picture.width = 40;
    picture.height = 40;
    picture.src = image.url;
  }
  const name = document.createElement('span');
  name.className = 'site-search__name';
  name.textContent = entry.attributes.name;
  const price = document.createElement('span');
  price.className = 'site-search__price';
  price.textContent = formatCurrency(entry.attributes.price);
  return optionElement(`site-search-option-${index}`, href, [picture, name, price]);
}

function mountSearchBox(input: HTMLInputElement): void {
  const form = input.form;
  const slug = $storeSlug.get();
  if (!form || !slug || input.dataset.mounted) return;
  input.dataset.mounted = 'true';
  const links = storeLinks($linkBase.get());

  const listbox = document.createElement('ul');
  listbox.id = LISTBOX_ID;
  listbox.className = 'site-search__listbox';
  listbox.setAttribute('role', 'listbox');
  listbox.setAttribute('aria-label', 'Search results');
  listbox.hidden = true;
  const status = document.createElement('span');
  status.className = 'sr-only';
  status.setAttribute('role', 'status');
  form.append(listbox, status);

  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', LISTBOX_ID);
  input.setAttribute('aria-expanded', 'false');

  let options: Option[] = [];
  let active = -1;
  let sent = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const setActive = (index: number) => {
    options[active]?.element.setAttribute('aria-selected', 'false');
    active = index;
    const option = options[active];
    if (option) {
      option.element.setAttribute('aria-selected', 'true');
      option.element.scrollIntoView({ block: 'nearest' });
      input.setAttribute('aria-activedescendant', option.element.id);
    } else input.removeAttribute('aria-activedescendant');
  };
  const close = () => {
    // A query still waiting for its pause or its answer must not open the list again once closed.
    clearTimeout(timer);
    sent++;
    setActive(-1);
    listbox.hidden = true;
    input.setAttribute('aria-expanded', 'false');
  };
  const show = (query: string, entries: Listing[], total: number) => {
    const allHref = `${links.search}?${new URLSearchParams({ q: query }).toString()}`;
    options = entries.map((entry, i) => {
      const href = entry.type === 'bundle' ? links.bundle(entry.id) : links.product(entry.id);
      return { element: resultOption(entry, i, href), href };
    });
    const all = document.createElement('span');
    all.textContent =
      total === 0
        ? `No matches for “${query}”`
        : total === 1
          ? `The result for “${query}”`
          : `All ${total} results for “${query}”`;
    options.push({ element: optionElement('site-search-option-all', allHref, [all]), href: allHref });
    options.at(-1)!.element.classList.add('site-search__all');
    listbox.replaceChildren(...options.map((o) => o.element));
    active = -1;
    input.removeAttribute('aria-activedescendant');
    listbox.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    status.textContent = total === 1 ? '1 result' : `${total} results`;
  };

  const search = async () => {
    const query = input.value.trim();
    const ticket = ++sent;
    if (!query) {
      close();
      return;
    }
    try {
      const found = await searchListings(browserRequester(), slug, { q: query, per_page: INSTANT_COUNT });
      // An answer to an older query arriving late must not replace the newer one's.
      if (ticket !== sent || document.activeElement !== input) return;
      show(query, found.data, found.meta.total);
    } catch {
      // No instant results (offline, refused): the form still leads to the results page.
      if (ticket === sent) close();
    }
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void search(), TYPING_PAUSE_MS);
  });
  input.addEventListener('focus', () => {
    if (input.value.trim()) void search();
  });
  input.addEventListener('keydown', (event) => {
    const open = !listbox.hidden;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!open) return void search();
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // The field itself is the position before the first option and after the last: -1.
      setActive(((active + 1 + step + options.length + 1) % (options.length + 1)) - 1);
    } else if (event.key === 'Enter' && open && options[active]) {
      event.preventDefault();
      location.assign(options[active]!.href);
    } else if (event.key === 'Escape') {
      // Closed already, Escape keeps its own meaning (clearing the field); either way no list opens now.
      if (open) event.preventDefault();
      close();
    }
  });
  // A click on an option keeps focus in the field until the link opens.
  listbox.addEventListener('mousedown', (event) => event.preventDefault());
  listbox.addEventListener('click', (event) => {
    const option = (event.target as Element).closest<HTMLElement>('[role="option"]');
    if (option?.dataset.href) location.assign(option.dataset.href);
  });
  input.addEventListener('blur', close);
  // Back to a page from the back-forward cache: the list it left open is stale.
  addEventListener('pagehide', close);

  if (document.activeElement === input && input.value.trim()) void search();
}

const input = document.querySelector<HTMLInputElement>('#site-search-q');
if (input) mountSearchBox(input);
