import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

// The import rule of docs/architecture.md is enforced only by the lint (docs/decisions/140-eslint-and-prettier.md);
// these cases keep a config change from switching it off unnoticed.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function importRuleErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message);
}

describe('the import rule', { timeout: 60_000 }, () => {
  test('an island that imports src/server is an error', async () => {
    const errors = await importRuleErrors(
      'src/islands/RestrictedForm.tsx',
      "import { createApp } from '../server/app.ts';\n\nexport const app = createApp;\n",
    );
    expect(errors).toEqual([expect.stringContaining('do not import src/server')]);
  });

  test('src/lib that imports a store is an error', async () => {
    const errors = await importRuleErrors(
      'src/lib/money.ts',
      "import { $cart } from '../stores/cart.ts';\n\nexport const cart = $cart;\n",
    );
    expect(errors).toEqual([expect.stringContaining('src/lib is pure and shared')]);
  });

  test('an island may import src/lib', async () => {
    const errors = await importRuleErrors(
      'src/islands/RestrictedForm.tsx',
      "import { formatCurrency } from '../lib/money.ts';\n\nexport const format = formatCurrency;\n",
    );
    expect(errors).toEqual([]);
  });
});
