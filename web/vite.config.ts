import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * `npm run dev` (from the repository root): this dev server with hot reload on DEV_WEB_PORT
 * (default 5173), forwarding the API and the sockets to Veil on PORT (default 8080), which
 * `npm run dev` runs beside it and restarts on server code changes.
 */
const backend = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const webPort = process.env.DEV_WEB_PORT;

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
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
