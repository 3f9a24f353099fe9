import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'

/** Chromium flags that work on these machines (TOOLCHAIN.md): no sandbox as root, no background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

// The GPU solver (issue 21) where no GPU is: SwiftShader, chromium's Vulkan CPU driver, whose
// Vulkan loader must be on the server's library path when it starts (as vitest.config.ts does).
const SWIFTSHADER = '/usr/lib/chromium/vk_swiftshader_icd.json'
const gpuServerEnv: Record<string, string> =
  process.env.VK_ICD_FILENAMES === undefined && existsSync(SWIFTSHADER)
    ? {
        LD_LIBRARY_PATH: ['/usr/lib/chromium', process.env.LD_LIBRARY_PATH]
          .filter(Boolean)
          .join(':'),
        VK_ICD_FILENAMES: SWIFTSHADER,
      }
    : {}

// The config is evaluated in every worker too: fix the port and data dir once, in the env they inherit.
process.env.E2E_PORT ??= String(8700 + Math.floor(Math.random() * 200))
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'dive-e2e-'))
const baseURL = `http://localhost:${process.env.E2E_PORT}`

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright.json' }]],
  outputDir: 'test-results',
  use: {
    baseURL,
    viewport: { width: 1600, height: 1000 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  webServer: {
    command: process.env.E2E_SKIP_BUILD
      ? 'npx tsx server/main.ts'
      : 'npx vite build && npx tsx server/main.ts',
    url: `${baseURL}/api/version`,
    env: { PORT: process.env.E2E_PORT, DIVE_DATA_DIR: process.env.E2E_DATA_DIR, ...gpuServerEnv },
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  },
})
