import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(js|css|svg|json|txt|html)$/;

/**
 * DESIGN.md section 10: the hashed assets are compressed once, at build, as `.br` and `.gz` files
 * beside them; the server sends the one the browser accepts instead of compressing each request.
 */
function precompress(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    // After the files are written: the code is final only then (the preload lists are filled in late).
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? '';
      await Promise.all(
        Object.keys(bundle)
          .filter((fileName) => fileName.startsWith('assets/') && COMPRESSIBLE.test(fileName))
          .map(async (fileName) => {
            const file = path.join(outDir, fileName);
            const bytes = await fs.readFile(file);
            const [br, gz] = await Promise.all([
              brotli(bytes, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                },
              }),
              gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
            ]);
            await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
          }),
      );
    },
  };
}

export default defineConfig({
  root: 'src/web',
  plugins: [react(), precompress()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Fewer, larger files (DESIGN.md section 10): left to itself the bundler cuts Mantine into
        // dozens of small shared chunks, and a signed-in page such as Client Information fetched
        // 41 files over HTTP/1.1's six connections, one round trip after another. Everything the
        // sign-in page imports goes into one file (it loads nothing else), and the Mantine
        // components of the other pages into one more, loaded with the first of them.
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            // Their code only: the styles stay in the order ./app/styles/pages gives them.
            {
              name: 'mantine',
              test: /node_modules[\\/](@mantine[\\/](core|hooks)|@floating-ui)[\\/].*\.m?js$/,
              priority: 1,
            },
            // The small files every signed-in page asks for with its frame (and the alert icons most of
            // them show), in one: over HTTP/1.1's six connections a dozen 1 kB files queued one
            // round trip after another (Client Information: 17 files -> 7).
            {
              name: 'portal',
              test: /src[\\/](web[\\/](app[\\/](session-gate|portal-layout|physician-layout|portal-shell|use-portal-session|use-idle-sign-out|navigation)|lib[\\/]form-draft|components[\\/](leave-guard|date-of-birth-input))|domain[\\/](client-basics|auth-policy|dates|money|us-states))\.tsx?$|@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/](createReactComponent|defaultAttributes|icons[\\/](IconAlertTriangle|IconCircleCheck))\.mjs$/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/dev': 'http://localhost:3000' } },
});
