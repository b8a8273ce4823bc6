import { defineConfig } from '@playwright/test';
import base from '../../playwright.config.ts';

/**
 * Runs forms.spec.ts alone: the spec serves its own in-memory harness through page.route, so
 * the app's web server is not needed.
 *   npx playwright test tests/e2e/forms.spec.ts --config tests/e2e/forms.config.ts
 */
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'forms.spec.ts',
  outputDir: '../../test-results/forms',
  webServer: undefined,
  use: { ...base.use, baseURL: undefined },
});
