/** What a key does in an open list (spec §9 keys: arrow up, arrow down, enter, space, escape, tab). */
export type ListKeyAction =
  | { type: 'move'; index: number }
  | { type: 'select'; index: number }
  | { type: 'close'; restoreFocus: boolean }
  | { type: 'none' };

/** Pure key handling for an open listbox of `count` options with `active` highlighted (-1 for none). */
export function listKeyAction(key: string, active: number, count: number): ListKeyAction {
  if (count === 0 && key !== 'Escape' && key !== 'Tab') return { type: 'none' };
  switch (key) {
    case 'ArrowDown':
      return { type: 'move', index: active < 0 ? 0 : (active + 1) % count };
    case 'ArrowUp':
      return { type: 'move', index: active <= 0 ? count - 1 : active - 1 };
    case 'Enter':
    case ' ':
      return active >= 0 ? { type: 'select', index: active } : { type: 'none' };
    case 'Escape':
      return { type: 'close', restoreFocus: true };
    // Tab leaves the list closed and lets focus move on naturally.
    case 'Tab':
      return { type: 'close', restoreFocus: false };
    default:
      return { type: 'none' };
  }
}
