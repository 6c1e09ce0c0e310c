import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

// Vendor libraries change far less often than the app: separate chunks keep them cached
// across deployments and keep the entry chunk small. Order matters: first match wins.
const vendorGroups = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  // @mantine/dates and dayjs are left out on purpose: they belong to the lazy date picker.
  { name: 'vendor-mantine', test: /node_modules[\\/]@mantine[\\/](core|hooks|notifications|store)[\\/]/ },
  { name: 'vendor-query', test: /node_modules[\\/]@tanstack[\\/]/ },
  { name: 'vendor-i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/ },
  { name: 'vendor-icons', test: /node_modules[\\/]@tabler[\\/]/ },
  { name: 'vendor-sentry', test: /node_modules[\\/]@sentry(-internal)?[\\/]/ },
  { name: 'vendor-echarts', test: /node_modules[\\/](echarts|zrender)[\\/]/ },
];

export default defineConfig({
  plugins: [
    react(),
    // Brotli and gzip copies beside every text asset (`x.js.br`, `x.js.gz`): the server sends
    // the best one the browser accepts, so nothing is compressed per request.
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|mjs|css|svg|json|html)$/,
    }),
  ],
  base: './',
  server: {
    proxy: {
      '/v2': { target: 'http://127.0.0.1:8000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in the production build: nothing uploads them, and served maps would
    // publish the sources.
    sourcemap: false,
    // Vite warns from 500 kB. The one chunk above it is ECharts (about 650 kB, 220 kB gzip),
    // already tree-shaken and loaded lazily with the first chart, never with the entry
    // (benchmarks/bench_assets.py); a chunk that grows past 700 kB still warns.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: vendorGroups.map((group, index) => ({
            ...group,
            priority: vendorGroups.length - index,
          })),
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // Whole-app tests render Mantine in jsdom; on 2 shared cores the first render can take seconds.
    testTimeout: 20_000,
    // One worker per core. Vitest's default keeps a core for itself (one worker on two cores),
    // but the main process idles once the files are transformed: 100 s instead of 165 s there.
    maxWorkers: '100%',
  },
});
