import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { comlink } from 'vite-plugin-comlink'
import { precompress } from './scripts/precompress.ts'

/** SharedArrayBuffer needs cross-origin isolation on every response, in dev and preview alike. */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
}

const apiTarget = `http://localhost:${process.env.API_PORT ?? '8080'}`

export default defineConfig({
  plugins: [comlink(), react(), precompress()],
  worker: { format: 'es', plugins: () => [comlink()] },
  server: {
    headers: ISOLATION_HEADERS,
    proxy: { '/api': apiTarget, '/ws': { target: apiTarget, ws: true } },
  },
  preview: { headers: ISOLATION_HEADERS },
  // The manifest (dist/.vite/manifest.json) lets tests check what each route's chunks import.
  build: { outDir: 'dist', sourcemap: true, manifest: true, chunkSizeWarningLimit: 2000 },
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react-router',
      'jotai',
      '@tanstack/react-query',
      'valibot',
      'comlink',
    ],
  },
})
