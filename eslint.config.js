// ESLint for correctness and the import rule, Prettier for layout (docs/decisions/140-eslint-and-prettier.md).
import js from '@eslint/js';
import eslintConfigPrettier from 'eslint-config-prettier/flat';
import astro from 'eslint-plugin-astro';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The storefront's folders: it reaches the API over HTTP, so none of them may import src/server (docs/architecture.md). */
const STOREFRONT = [
  'src/islands',
  'src/stores',
  'src/pages',
  'src/components',
  'src/layouts',
  'src/scripts',
  'src/lib',
];

/** The import rule of docs/architecture.md, as zones of `import-x/no-restricted-paths`. */
export const IMPORT_RULE_ZONES = [
  {
    target: STOREFRONT,
    from: 'src/server',
    message: 'The storefront reaches the API over HTTP: do not import src/server (docs/architecture.md).',
  },
  {
    target: 'src/lib',
    from: ['src/islands', 'src/stores', 'src/pages', 'src/components', 'src/layouts', 'src/front', 'src/middleware.ts'],
    message: 'src/lib is pure and shared: it imports nothing else of the application (docs/architecture.md).',
  },
  {
    target: 'src/stores',
    from: ['src/islands', 'src/pages', 'src/components', 'src/layouts'],
    message: 'Stores hold state for the islands and import only src/lib (docs/architecture.md).',
  },
  {
    target: 'src/server',
    from: ['src/islands', 'src/stores', 'src/pages', 'src/components', 'src/layouts', 'src/front'],
    message: 'The API server shares only src/lib with the storefront (docs/architecture.md).',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist*/**',
      'builds/**',
      'bench/tmp/**',
      '.astro/**',
      '.data*/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
      // Cycles and boundaries are ours to keep; parsing dependencies' bundles would only slow the lint.
      'import-x/ignore': ['node_modules'],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: IMPORT_RULE_ZONES }],
      // Template literals with numbers are how the code writes messages and ids; booleans and objects stay forbidden.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `_`-prefixed names mark a parameter a signature requires but this implementation does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // `onClick={() => setOpen(false)}` is how React handlers are written; void returns elsewhere stay flagged.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // The code describes data with `type` aliases (unions and intersections need them); one form, not two.
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      // A no-op arrow is how the injected parts say "nothing to do" (silent logger, mail sink in tests).
      '@typescript-eslint/no-empty-function': ['error', { allow: ['arrowFunctions', 'methods'] }],
      // Under `noUncheckedIndexedAccess`, `match[1]!` states an index the code has checked; `?? ''` would hide a bug.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // An empty environment variable, cookie or field means "not set", so `||` is meant where it is used on strings.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true, boolean: true } }],
      // Headers, cookies and URLs are checked for control characters on purpose, to refuse them.
      'no-control-regex': 'off',
      // Kysely's expression builder (`({ exists, selectFrom }) =>`) and this code's objects of arrow functions are bound.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The plugin itself is registered by eslint-plugin-astro's jsx-a11y config below; the same rules apply to islands.
    files: ['**/*.tsx'],
    rules: jsxA11y.flatConfigs.recommended.rules,
  },
  {
    files: ['**/*.tsx'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  ...astro.configs.recommended,
  ...astro.configs['jsx-a11y-recommended'],
  {
    // Type information inside .astro frontmatter comes from `astro check`, not from typescript-eslint's project.
    files: ['**/*.astro', '**/*.astro/*.ts', '**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Migrations are written against `Kysely<any>` (Kysely's guide): they must not depend on today's schema type.
    files: ['src/server/db/migrations/**', 'src/server/db/migrate.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests may import anything, and the harness's fixtures build deliberately odd values.
    files: ['tests/**'],
    rules: {
      'import-x/no-restricted-paths': 'off',
      // A test that reaches a missing value throws and fails, which is what `!` should do there.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Test doubles implement async interfaces without awaiting anything.
      '@typescript-eslint/require-await': 'off',
      // Clean-up hooks use `api?.close()` because a failed `beforeAll` leaves the value unset.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // Vitest's asymmetric matchers (`expect.any(Number)`) are typed `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // Fetch doubles read `RequestInfo | URL` inputs and bodies they know are strings.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // API tests read answers as `any`: TestApp.call has already checked each one against the contract at run time
    // (tests/api/support/contract-check.ts), and a failed check fails the test (ADR 171).
    files: ['tests/api/**', 'tests/reliability/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  eslintConfigPrettier,
);
