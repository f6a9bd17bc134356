import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The API server in development; the built app is served by it from the same origin. */
const API_ORIGIN = 'http://localhost:3000';
const API_PREFIXES = ['/api', '/sanctum', '/healthz', '/media', '/serve', '/signin-as'];

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
        // Libraries change less often than the app: separate chunks stay cached across deploys. These groups take
        // only what the first visit needs ($initial): a group also takes its modules' dependencies, and the one
        // screen's chart library would otherwise load for everybody (docs/performance.md, the web app's size).
        codeSplitting: {
          groups: [
            // Zod with the one line that makes it jitless (src/api/zod-jitless.ts): every chunk that builds a
            // schema imports this one, so zod never probes `new Function`, which the Content-Security-Policy
            // forbids (the browser would report each probe as a violation).
            { name: 'zod', tags: ['$initial'], test: /(node_modules[\\/]zod[\\/]|src[\\/]api[\\/]zod-jitless\.ts$)/ },
            {
              name: 'react',
              tags: ['$initial'],
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
            },
            {
              name: 'mantine',
              tags: ['$initial'],
              test: /node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|react-number-format|react-transition-group|clsx|tslib|use-)/,
            },
            { name: 'vendor', tags: ['$initial'], test: /node_modules[\\/]/ },
            // The advertiser's chart and date picker, loaded with the one screen that shows them.
            { name: 'charts', test: /node_modules[\\/](@mantine[\\/](charts|dates)|recharts|dayjs)[\\/]/ },
          ],
        },
      },
    },
  },
});
