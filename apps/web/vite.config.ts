import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Two builds share this file: the browser bundle (dist/client, with the HTML template) and, with
// --ssr, the server renderer (dist/server/entry-server.js; React stays external in node_modules).
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  build: isSsrBuild
    ? { outDir: 'dist/server', emptyOutDir: true, rollupOptions: { input: 'src/entry-server.tsx' } }
    // The manifest (dist/client/.vite/manifest.json, never served) says which chunks each page loads: `npm run bench -- bundle`.
    // No modulepreload polyfill (0.4 KB gzip in every first load): every browser the shop supports
    // (Chrome 66+, Firefox 115+, Safari 17+) preloads modules itself.
    : { outDir: 'dist/client', emptyOutDir: true, manifest: true, modulePreload: { polyfill: false } },
  ssr: { noExternal: ['@bodega/sdk'] },
  server: { proxy: { '^/(_api|_iam|oauth2|wix-data|ecom|stores|stores-reader|members|headless|healthz|media)': 'http://localhost:3000' } },
}));
