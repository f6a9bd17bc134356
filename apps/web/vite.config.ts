import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The API server in development; the built app is served by it from the same origin. */
const API_ORIGIN = 'http://localhost:3000';
const API_PREFIXES = ['/api', '/sanctum', '/healthz', '/media', '/serve'];

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    // Same origin as in production, so the session and XSRF cookies behave identically.
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API_ORIGIN, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
            },
            {
              name: 'mantine',
              test: /node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|react-number-format|react-transition-group|clsx|tslib|use-)/,
            },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
});
