/**
 * The demo: `node scripts/demo.mjs build` bundles demo/ into demo/dist (a static site);
 * `node scripts/demo.mjs serve` builds it and serves it on http://127.0.0.1:5173 (npm start).
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'demo', 'dist');
/** The pages: demo/<page>.ts bundled into demo/dist/<page>.js, beside demo/<page>.html. */
const PAGES = ['main', 'playground', 'mocap', 'character', 'crowd'];
/** What the pages fetch, shipped in examples/assets (see its LICENSES.md). */
const ASSETS = [
  'RobotExpressive.glb',
  'Fox.glb',
  'cmu_02_01_walk.bvh',
  'cmu_run_jog_daz_filtered.bvh',
  'cmu_01_03_climb_ladder_hang.bvh',
];

/** Bundles the demo into demo/dist; returns that directory. */
export async function buildDemo() {
  mkdirSync(dist, { recursive: true });
  await build({
    entryPoints: PAGES.map((page) => path.join(root, 'demo', `${page}.ts`)),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // @gltf-transform/core's NodeIO loads node:fs lazily; it never runs in a browser.
    external: ['node:*'],
    outdir: dist,
    sourcemap: true,
    logLevel: 'warning',
  });
  for (const file of readdirSync(path.join(root, 'demo'))) {
    if (file.endsWith('.html') || file.endsWith('.css')) {
      copyFileSync(path.join(root, 'demo', file), path.join(dist, file));
    }
  }
  // The assets' licences travel with them (the Fox is CC-BY 4.0: its attribution goes where it goes).
  for (const file of [...ASSETS, 'LICENSES.md']) {
    copyFileSync(path.join(root, 'examples', 'assets', file), path.join(dist, file));
  }
  return dist;
}

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.map': 'application/json',
  '.glb': 'model/gltf-binary',
  '.css': 'text/css',
  '.bvh': 'text/plain',
  '.md': 'text/plain; charset=utf-8',
};

/** Serves `dir` on 127.0.0.1 (port 0: any free one); resolves to the server and its URL. */
export function serve(dir, port = 0) {
  const server = createServer((request, response) => {
    let url;
    try {
      url = new URL(request.url ?? '/', 'http://127.0.0.1');
    } catch {
      // A path that is no URL ("//", say) is the client's error: it must not stop the server.
      response.writeHead(400).end();
      return;
    }
    const file = path.join(
      dir,
      url.pathname === '/' ? 'index.html' : path.normalize(url.pathname).replace(/^([/\\])+/, ''),
    );
    if (!file.startsWith(dir)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = readFileSync(file);
      response
        .writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' })
        .end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${server.address().port}/` }),
    ),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = await buildDemo();
  if (process.argv[2] === 'serve') {
    const { url } = await serve(dir, Number(process.env.PORT ?? 5173));
    console.log(
      `tendon demo: ${url}  (and ${PAGES.slice(1)
        .map((page) => `${page}.html`)
        .join(', ')}; Ctrl-C to stop)`,
    );
  } else {
    console.log(
      `tendon demo built into ${path.relative(root, dir)}/ (a static site: serve it with any web server)`,
    );
  }
}
