import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 4399);

// Debian's Chromium (scripts/ensure-chromium.ts installs it); Playwright's own download is unreachable here.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP shop.acme.test 127.0.0.1, MAP members.vip.test 127.0.0.1'],
    },
  },
  webServer: {
    // A throwaway database per run: scripts/e2e-server.ts wipes it, then runs `npm start`'s code.
    command: `node scripts/e2e-server.ts`,
    // Every browser of the suite is one client (127.0.0.1) and starts without a cart cookie: the limit on
    // new cart tokens per client (docs/decisions/111) is for strangers, not for this one test client. The
    // console specs sign the demo owner in many times within one window, so the sign-in limits (ADR 197,
    // tested by the API suite) are raised for the same reason.
    env: {
      PORT: String(port),
      DATA_DIR: `.data-e2e-${port}`,
      RATE_LIMIT_NEW_CARTS_PER_CLIENT: '100000',
      RATE_LIMIT_ADMIN_SIGN_IN_PER_EMAIL: '1000',
      RATE_LIMIT_ADMIN_SIGN_IN_PER_CLIENT: '1000',
    },
    // Ready once the snapshot build is live (the API answers earlier): the catalog tests read and replace it.
    url: `http://localhost:${port}/builds/latest.json`,
    timeout: 180_000,
    reuseExistingServer: false,
  },
});
