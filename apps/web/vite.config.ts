import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy: { '^/(_api|_iam|oauth2|wix-data|ecom|stores|stores-reader|members|headless|healthz)': 'http://localhost:3000' } },
});
