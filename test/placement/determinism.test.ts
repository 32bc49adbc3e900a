/**
 * Placement keeps the solvers' promise (docs/methods.md §5): only + − × ÷ and √ once set up, so a
 * frame placed in V8 is bit for bit the frame placed in QuickJS.
 */
import { describe, expect, it } from 'vitest';
import { bundleDriver, runInQuickJS, runInV8 } from '../helpers/engines.js';
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
    const code = await bundleDriver(new URL('./determinism-driver.ts', import.meta.url));
    const inV8 = runInV8(code, 60);
    const inQuickJS = await runInQuickJS(code, 60);
    expect(inQuickJS.length).toBe(inV8.length);
    expect(inQuickJS === inV8).toBe(true);
  });
});
