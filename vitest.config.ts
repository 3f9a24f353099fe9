import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

// The GPU backend's tests (solver/gpu) run where no GPU is on a Vulkan CPU driver: lavapipe
// (Mesa 25, unpacked under .cache/lavapipe by scripts/lavapipe.sh, which .ci/run calls) when it is
// there, else SwiftShader, which Debian's chromium ships. Either way chromium's Vulkan loader must
// be on the library path when the test process starts, so the env goes to that project's worker
// processes. Set VK_ICD_FILENAMES yourself to test on another driver (a real card).
const CHROMIUM_LIBS = '/usr/lib/chromium'
const SWIFTSHADER = `${CHROMIUM_LIBS}/vk_swiftshader_icd.json`
const LAVAPIPE = fileURLToPath(new URL('.cache/lavapipe/lvp_icd.json', import.meta.url))
const LAVAPIPE_LIBS = fileURLToPath(
  new URL('.cache/lavapipe/root/usr/lib/x86_64-linux-gnu', import.meta.url),
)

function gpuDriverEnv(): Record<string, string> {
  if (process.env.VK_ICD_FILENAMES !== undefined || !existsSync(CHROMIUM_LIBS)) return {}
  const lavapipe = existsSync(LAVAPIPE)
  if (!lavapipe && !existsSync(SWIFTSHADER)) return {}
  const libraryPath = [lavapipe ? LAVAPIPE_LIBS : '', CHROMIUM_LIBS, process.env.LD_LIBRARY_PATH]
  return {
    LD_LIBRARY_PATH: libraryPath.filter(Boolean).join(':'),
    VK_ICD_FILENAMES: lavapipe ? LAVAPIPE : SWIFTSHADER,
  }
}
const gpuTestEnv = gpuDriverEnv()

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
            'validation/**/*.test.ts',
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
