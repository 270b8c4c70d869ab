import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API gateway (and its realtime endpoint) in development: `npm start` or `veil` on :8080. */
const backend = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
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
