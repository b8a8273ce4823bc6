// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { readShellData, serializeShellData, type ShellData } from '../../../src/lib/shell-data.ts';
import { acme } from './fixtures.ts';

test('store data survives the trip through the page and cannot close its script element', () => {
  const data: ShellData = {
    store: { ...acme, title: 'Evil </script><script>alert(1)</script>' },
    linkBase: '/acme',
    prerendered: true,
    customDomain: null,
  };
  const json = serializeShellData(data);
  expect(json).not.toContain('</script>');
  document.body.innerHTML = `<script type="application/json" id="shell-data">${json}</script>`;
  expect(readShellData(document)).toEqual(data);
});

test('a page without store data (store-less pages) reads as null', () => {
  document.body.innerHTML = '';
  expect(readShellData(document)).toBeNull();
});
