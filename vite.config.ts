import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { comlink } from 'vite-plugin-comlink'

/** SharedArrayBuffer needs cross-origin isolation on every response, in dev and preview alike. */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
}

const apiTarget = `http://localhost:${process.env.API_PORT ?? '8080'}`

export default defineConfig({
  plugins: [comlink(), react()],
  worker: { format: 'es', plugins: () => [comlink()] },
  server: {
    headers: ISOLATION_HEADERS,
    proxy: { '/api': apiTarget, '/ws': { target: apiTarget, ws: true } },
  },
  preview: { headers: ISOLATION_HEADERS },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 2000 },
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
