import { defineConfig } from '@playwright/test';

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
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run', '--disable-quic', '--disable-dev-shm-usage',
        '--host-resolver-rules=MAP shop.acme.test 127.0.0.1, MAP members.vip.test 127.0.0.1',
      ],
    },
  },
  webServer: {
    // A throwaway database per run: scripts/e2e-server.ts wipes it, then runs `npm start`'s code.
    command: `node scripts/e2e-server.ts`,
    env: { PORT: String(port), DATA_DIR: `.data-e2e-${port}` },
    url: `http://localhost:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
  },
});
