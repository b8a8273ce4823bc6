/** The navigation of a store's console pages: the sections the operator's role opens, the current one marked. */
import { sectionsFor, sectionUrl } from './console-sections.ts';
import type { ConsoleStore } from './StoreGate.tsx';

export function StoreNav({ store }: { store: ConsoleStore }) {
  // Rendered only once the session is read, which happens in the browser: the path is there.
  const here = window.location.pathname;
  return (
    <nav className="console__nav" aria-label={`${store.title} console`}>
      <ul>
        {sectionsFor(store).map((section) => {
          const url = sectionUrl(store, section);
          const current = here === url ? 'page' : here.startsWith(`${url}/`) ? 'location' : undefined;
          return (
            <li key={section.path}>
              <a href={url} aria-current={current}>
                {section.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
