/**
 * tendon/three is the only part of tendon that imports three.js or three-mesh-bvh (peer
 * dependencies a user of the core does not install), and it is published as a subpath.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(`${root}${dir}`, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(`${dir}/${entry.name}`)
      : entry.name.endsWith('.ts')
        ? [`${dir}/${entry.name}`]
        : [],
  );
}

describe('tendon/three boundary', () => {
  it('no module outside src/three imports three or three-mesh-bvh', () => {
    const files = sources('src');
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter(
      (file) =>
        !file.startsWith('src/three/') &&
        /from '(three|three-mesh-bvh)(\/[^']*)?'/.test(readFileSync(`${root}${file}`, 'utf8')),
    );
    expect(offenders).toEqual([]);
    expect(/from 'three'/.test(readFileSync(`${root}src/three/binding.ts`, 'utf8'))).toBe(true);
  });

  it('is the subpath export tendon/three, with three and three-mesh-bvh as optional peers', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    expect(pkg.exports['./three']).toEqual({
      types: './dist/three/index.d.ts',
      import: './dist/three/index.js',
    });
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['three', 'three-mesh-bvh']);
    expect(pkg.peerDependenciesMeta.three.optional).toBe(true);
    expect(pkg.peerDependenciesMeta['three-mesh-bvh'].optional).toBe(true);
    expect(pkg.devDependencies.three).toBeDefined();
    expect(pkg.devDependencies['three-mesh-bvh']).toBeDefined();
    expect(pkg.dependencies.three).toBeUndefined();
  });
});
