/**
 * Placement keeps the solvers' promise (ALGORITHMS.md §5): only + − × ÷ and √ once set up, so a
 * frame placed in V8 is bit for bit the frame placed in QuickJS.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { getQuickJS } from 'quickjs-emscripten';
import { describe, expect, it } from 'vitest';
import { withoutTrigonometry } from '../ik/without-trigonometry.js';
import { run } from './determinism-driver.js';

describe('placement determinism', () => {
  it('places, looks, climbs and hangs without any of Math.sin, cos, tan, exp, log, pow, hypot, ...', () => {
    // Set-up included: the tilt limit and the cones become cosines by tendon's own arithmetic.
    const before = run(40);
    let after = '';
    withoutTrigonometry(() => {
      after = run(40);
    });
    expect(after === before).toBe(true);
  });

  it('gives bit-identical placements in V8 and in QuickJS', async () => {
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('./determinism-driver.ts', import.meta.url))],
      bundle: true,
      format: 'iife',
      globalName: 'driver',
      platform: 'neutral',
      target: 'es2020',
      write: false,
    });
    const code = bundle.outputFiles[0].text;
    const frames = 60;
    const inV8 = new Function(`${code}; return driver.run(${frames});`)() as string;
    const QuickJS = await getQuickJS();
    const vm = QuickJS.newContext();
    try {
      const result = vm.unwrapResult(vm.evalCode(`${code}; driver.run(${frames});`));
      const inQuickJS = vm.getString(result);
      result.dispose();
      expect(inQuickJS.length).toBe(inV8.length);
      expect(inQuickJS === inV8).toBe(true);
    } finally {
      vm.dispose();
    }
  });
});
