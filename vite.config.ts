import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { framePlaceholderHtml } from './src/web/app/frame-placeholder.ts';
import { PAGE_FRAMES, PRELOADED_PAGES } from './src/web/app/preloaded-pages.ts';
import { logoMarkSvg } from './src/web/components/logo-mark-shapes.ts';

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

/**
 * The bank's mark as the pages' icon, written into index.html as an SVG data address: drawn from
 * the same shapes as the headers' mark, with no file of its own to keep in step and no request.
 */
function favicon(): Plugin {
  return {
    name: 'favicon',
    transformIndexHtml: () => [
      {
        tag: 'link',
        attrs: {
          rel: 'icon',
          type: 'image/svg+xml',
          href: `data:image/svg+xml,${logoMarkSvg().replace(/[<>#%"]/g, encodeURIComponent)}`,
        },
        injectTo: 'head',
      },
    ],
  };
}

/** The shape of `page-preloads.json`, which the server reads (src/server/lib/page-html.ts). */
export type PagePreloads = {
  pages: Array<{ pattern: string; js: string[]; css: string[]; fetch: string[]; placeholder: string | null }>;
};

/**
 * DESIGN.md section 10: for each signed-in page of src/web/app/preloaded-pages.ts, the files its
 * first visit needs beyond the app's own (its code with everything that code imports, and their
 * styles), written to `page-preloads.json`. The server names them in the page it sends for that
 * address, so they download beside the app's file, not one round trip after it has run.
 */
function pagePreloads(): Plugin {
  const webRoot = path.resolve(import.meta.dirname, 'src/web');
  let pages: PagePreloads['pages'] = [];
  return {
    name: 'page-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      // A page's module is in the chunk that holds it (a group such as 'portal' holds several).
      const byModule = new Map(
        chunks.flatMap((chunk) =>
          chunk.moduleIds.map((id) => [path.relative(webRoot, id).split(path.sep).join('/'), chunk] as const),
        ),
      );
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (fileNames: string[]) => {
        const seen = new Set<string>();
        const queue = [...fileNames];
        while (queue.length > 0) {
          const fileName = queue.pop() as string;
          if (seen.has(fileName)) continue;
          seen.add(fileName);
          queue.push(...(byFile.get(fileName)?.imports ?? []));
        }
        return seen;
      };
      const loadedByHtml = closure(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      pages = PRELOADED_PAGES.map(([pattern, module, frameName]) => {
        const frame = PAGE_FRAMES[frameName];
        const roots = [...frame.modules, module].map((name) => {
          const chunk = byModule.get(name);
          if (!chunk) this.error(`page-preloads: no chunk holds src/web/${name} (${pattern})`);
          return chunk.fileName;
        });
        const files = [...closure(roots)].filter((fileName) => !loadedByHtml.has(fileName));
        const css = files.flatMap((fileName) => [...(byFile.get(fileName)?.viteMetadata?.importedCss ?? [])]);
        return {
          pattern,
          js: files.map((fileName) => `/${fileName}`),
          css: [...new Set(css)].map((fileName) => `/${fileName}`),
          fetch: [frame.firstCall],
          placeholder: frame.title ? framePlaceholderHtml(frame.title) : null,
        };
      });
    },
    // Written last: Vite drops the chunks that held only styles (./app/styles/pages) after the
    // hook above has read their styles, and a preload of a dropped file would be a wasted 404.
    async writeBundle(options, bundle) {
      const kept = pages.map((page) => ({ ...page, js: page.js.filter((file) => file.slice(1) in bundle) }));
      await fs.writeFile(
        path.join(options.dir ?? '', 'page-preloads.json'),
        `${JSON.stringify({ pages: kept } satisfies PagePreloads, null, 2)}\n`,
      );
    },
  };
}

export default defineConfig({
  root: 'src/web',
  plugins: [react(), favicon(), precompress(), pagePreloads()],
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
            { name: 'app', tags: ['$initial'], priority: 3 },
            // The Mantine components only some pages use (the staff's number fields, tables, tabs,
            // radios, file fields and the like) in a file of their own: Client Information and the
            // portal's frame do without them (the number field alone was an eighth of the file).
            {
              name: 'mantine-more',
              test: /node_modules[\\/](react-number-format|@mantine[\\/]core[\\/]esm[\\/]components[\\/](NumberInput|Radio|Tabs|Table|Grid|Textarea|FileInput|FileButton|Badge|Breadcrumbs|Accordion|List|Code))[\\/]/,
              priority: 1,
            },
            // The schemas' library in a file of its own: the back office's frame and its home page
            // validate nothing, and left in 'portal' it made two thirds of that file.
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 3 },
            // Their code only: the styles stay in the order ./app/styles/pages gives them.
            {
              name: 'mantine',
              test: /node_modules[\\/](@mantine[\\/](core|hooks)|@floating-ui)[\\/](?!esm[\\/]components[\\/](NumberInput|Radio|Tabs|Table|Grid|Textarea|FileInput|FileButton|Badge|Breadcrumbs|Accordion|List|Code)[\\/]).*\.m?js$/,
              priority: 2,
            },
            // Two sets of shared rules in one file each, as the client pages load them: the client's
            // record (its fields and the carrier's calendar), and the errors with the sign-in rules.
            // Left to itself the bundler cuts shared modules by the set of pages that import each:
            // once the back office's frame stopped loading the client's schemas, a client page
            // asked for two files more.
            {
              name: 'client-rules',
              test: /src[\\/]domain[\\/](client|cross-field|us-contact-fields|carrier-calendar)\.ts$/,
              includeDependenciesRecursively: false,
              priority: 1,
            },
            {
              name: 'errors',
              test: /src[\\/]domain[\\/](errors|auth)\.ts$/,
              includeDependenciesRecursively: false,
              priority: 1,
            },
            // The small files every signed-in page asks for with its frame (and the alert icons most of
            // them show), in one: over HTTP/1.1's six connections a dozen 1 kB files queued one
            // round trip after another (Client Information: 17 files -> 7).
            {
              name: 'portal',
              test: /src[\\/](web[\\/](app[\\/](session-gate|portal-layout|physician-layout|portal-shell|use-portal-session|use-idle-sign-out|navigation)|lib[\\/]form-draft|components[\\/](leave-guard|date-of-birth-input))|domain[\\/](client-basics|auth-policy|dates|money|us-states))\.tsx?$|@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/](createReactComponent|defaultAttributes|icons[\\/](IconAlertTriangle|IconCircleCheck))\.mjs$/,
              priority: 2,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/dev': 'http://localhost:3000' } },
});
