/** What a store page hands its boot script: the store, link base and delivery mode. */
import type { StoreAttributes } from './contract/answers.ts';
import { inlineJson } from './inline-json.ts';

export type ShellData = {
  store: StoreAttributes;
  linkBase: string;
  /** True when the HTML is a build snapshot: the client then runs the store-loading rules itself. */
  prerendered: boolean;
  customDomain: string | null;
};

/** JSON safe inside a <script> element (no '</script>' break-out). */
export function serializeShellData(data: ShellData): string {
  return inlineJson(data);
}

/** Reads the page's shell data, or null on store-less pages. */
export function readShellData(doc: Document): ShellData | null {
  const el = doc.getElementById('shell-data');
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as ShellData;
  } catch {
    return null;
  }
}
