import { existsSync } from 'node:fs'
import { configDefaults, defineConfig } from 'vitest/config'

// The GPU backend's tests (solver/gpu) run where no GPU is on SwiftShader, the Vulkan CPU driver
// that Debian's chromium ships: its Vulkan loader must be on the library path when the test
// process starts, so the env goes to that project's worker processes. Set VK_ICD_FILENAMES
// yourself to test on another driver (lavapipe, a real card).
const SWIFTSHADER = '/usr/lib/chromium/vk_swiftshader_icd.json'
const gpuTestEnv: Record<string, string> =
  process.env.VK_ICD_FILENAMES === undefined && existsSync(SWIFTSHADER)
    ? {
        LD_LIBRARY_PATH: ['/usr/lib/chromium', process.env.LD_LIBRARY_PATH]
          .filter(Boolean)
          .join(':'),
        VK_ICD_FILENAMES: SWIFTSHADER,
      }
    : {}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'domain/**/*.test.ts',
            'server/**/*.test.ts',
            'solver/**/*.test.ts',
            'engine/**/*.test.ts',
            'workers/**/*.test.ts',
            'tests/integration/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, 'solver/gpu/**', 'server/**/*.gpu.test.ts'],
          // no GPU solver in these servers' lists whatever the machine has (server/jobs/solvers.ts)
          env: { DIVE_GPU: 'off' },
          globalSetup: ['tests/setup/postgres.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'gpu',
          environment: 'node',
          include: ['solver/gpu/**/*.test.ts'],
          env: gpuTestEnv,
          testTimeout: 60_000,
        },
      },
      {
        test: {
          // the server with the GPU solver (runs through the API on SwiftShader), both dialects
          name: 'gpu-server',
          environment: 'node',
          include: ['server/**/*.gpu.test.ts'],
          env: gpuTestEnv,
          globalSetup: ['tests/setup/postgres.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'ui',
          environment: 'happy-dom',
          include: ['src/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
})
