/**
 * What `npm pack` ships: the build, the README, the CHANGELOG, the licence and package.json, and
 * nothing else (no tests, sources, demo, benchmarks or assets). Run with --ignore-scripts, so the
 * build is not redone here; when a build is present its type declarations must ship beside it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('npm pack', () => {
  it('ships dist, README, CHANGELOG, LICENSE and package.json only', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [pack] = JSON.parse(out) as [{ files: { path: string }[] }];
    const paths = pack.files.map((f) => f.path);
    const outside = paths.filter(
      (p) => !p.startsWith('dist/') && !['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(p),
    );
    expect(outside).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']));
    expect(
      paths.filter((p) => /(^|\/)(test|scratch|\.readme)\/|\.test\.|\.(glb|gltf|bvh|png)$/.test(p)),
    ).toEqual([]);
    if (existsSync(`${root}dist/index.js`)) {
      for (const entry of ['index', 'kernel/index', 'io/index', 'three/index']) {
        expect(paths).toContain(`dist/${entry}.js`);
        expect(paths).toContain(`dist/${entry}.d.ts`);
      }
    }
  });
});
