import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import { sourceHash, storeBuiltHash } from './scripts/source-hash.ts';

/**
 * The service worker (push notifications) as dist/sw.js: built after the app, on its own, as
 * one classic script with everything it imports inside, so that every browser can run it (not
 * all run module workers) and it is served from the root, which its scope must be under. The
 * dev server serves its source as a module instead (push-subscription.ts).
 */
const serviceWorker = (): Plugin => ({
  name: 'veil-service-worker',
  apply: 'build',
  async closeBundle() {
    await build({
      configFile: false,
      logLevel: 'warn',
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir: fileURLToPath(new URL('dist', import.meta.url)),
        emptyOutDir: false,
        copyPublicDir: false,
        sourcemap: true,
        lib: {
          entry: fileURLToPath(new URL('src/service-worker.ts', import.meta.url)),
          formats: ['iife'],
          name: 'veilServiceWorker',
          fileName: () => 'sw.js',
        },
      },
    });
  },
});

/**
 * `npm run dev` (from the repository root): this dev server with hot reload on DEV_WEB_PORT
 * (default 5173), forwarding the API and the sockets to Veil on PORT (default 8080), which
 * `npm run dev` runs beside it and restarts on server code changes.
 */
const backend = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const webPort = process.env.DEV_WEB_PORT;

/** Every build stores its sources' fingerprint, so `npm start` knows when to build again (scripts/). */
const sourceFingerprint = (): Plugin => {
  let hash = '';
  return {
    name: 'veil-source-fingerprint',
    apply: 'build',
    buildStart() {
      hash = sourceHash();
    },
    closeBundle() {
      storeBuiltHash(hash);
    },
  };
};

export default defineConfig({
  plugins: [react(), serviceWorker(), sourceFingerprint()],
  // The manifest says which chunks the first page loads (the size check in deploy/checks reads it).
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
  server: {
    // A port that was asked for is kept to (or the start fails); the default moves on when taken.
    ...(webPort ? { port: Number(webPort), strictPort: true } : {}),
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/socket.io': {
        target: backend,
        ws: true,
        changeOrigin: true,
        // The realtime gateway accepts only its allowed Origins; the dev server's origin is not one,
        // so the proxied handshake presents the backend's own origin.
        configure: (proxy) => {
          proxy.on('proxyReqWs', (proxyReq) => proxyReq.setHeader('origin', backend));
        },
      },
    },
  },
});
