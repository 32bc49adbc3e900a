/** IkDebugHelper: what it draws, where, and that its buffers are allocated once. */
import { Matrix4 } from 'three';
import { describe, expect, it } from 'vitest';
import { HIT } from '../../src/placement/ground.js';
import { restModelMatrices } from '../../src/pose/forward-kinematics.js';
import { Skeleton } from '../../src/skeleton/skeleton.js';
import { IkDebugHelper } from '../../src/three/index.js';

const skeleton = Skeleton.create({
  names: ['hip', 'knee', 'ankle', 'toe'],
  parents: [-1, 0, 1, 2],
  restTranslations: [0, 1, 0, 0, -0.5, 0, 0, -0.5, 0, 0, 0, 0.2],
});

function vertex(helper: IkDebugHelper, i: number): number[] {
  const p = helper.geometry.getAttribute('position');
  return [p.getX(i), p.getY(i), p.getZ(i)];
}

function color(helper: IkDebugHelper, i: number): number[] {
  const c = helper.geometry.getAttribute('color');
  return [c.getX(i), c.getY(i), c.getZ(i)];
}

const close = (a: number[], b: number[]) => {
  for (let i = 0; i < 3; i++) expect(a[i]).toBeCloseTo(b[i], 6);
};

describe('IkDebugHelper', () => {
  it('draws bones and chains in world space, then the markers, into buffers made once', () => {
    const helper = new IkDebugHelper(skeleton, { chains: [[0, 1, 2]], maxMarkers: 2, size: 0.1 });
    const model = restModelMatrices(skeleton);
    const world = new Matrix4().makeTranslation(1, 2, 3).multiply(new Matrix4().makeScale(2, 2, 2));
    const positions = helper.geometry.getAttribute('position').array;
    helper.update(model, world.elements, {
      targets: [0, 0, 0, 1, 1, 1, 2, 2, 2], // three targets, two drawn (maxMarkers)
      poles: [0, 0.5, 1],
      contacts: [5, 0, 5],
      hits: [7, 0, 7, 0, 1, 0, 3],
      rungs: [0, 1, 0, 1, 1, 0],
    });
    // 3 bones + 2 chain links, 2 vertices each; 2 targets + 1 pole + 1 contact crosses of 6; a hit
    // (6 + its normal 2); a rung 2.
    expect(helper.geometry.drawRange.count).toBe(10 + 4 * 6 + 8 + 2);
    // First bone: hip → knee, at world · model.
    close(vertex(helper, 0), [1, 4, 3]);
    close(vertex(helper, 1), [1, 3, 3]);
    // The chain's links come after the bones, in the chain colour.
    close(vertex(helper, 6), [1, 4, 3]);
    expect(color(helper, 6)).not.toEqual(color(helper, 0));
    // The first target (model space) is moved by the world matrix: a cross about (1, 2, 3).
    close(vertex(helper, 10), [0.9, 2, 3]);
    close(vertex(helper, 11), [1.1, 2, 3]);
    // The contact (world space) is not moved: its cross is the 4th cross, after 2 targets and a pole.
    close(vertex(helper, 10 + 18), [4.9, 0, 5]);
    // The hit: a cross at (7, 0, 7) then its normal, 4 × size long.
    close(vertex(helper, 10 + 24), [6.9, 0, 7]);
    close(vertex(helper, 10 + 30), [7, 0, 7]);
    close(vertex(helper, 10 + 31), [7, 0.4, 7]);
    close(vertex(helper, 10 + 33), [1, 1, 0]);
    // Nothing but the skeleton next frame, the same arrays.
    helper.update(model);
    expect(helper.geometry.drawRange.count).toBe(10);
    expect(helper.geometry.getAttribute('position').array).toBe(positions);
    close(vertex(helper, 0), [0, 1, 0]);
    expect(HIT.length).toBe(7);
    helper.dispose();
  });

  it('sizes its markers from the skeleton, and rejects what it cannot draw', () => {
    const helper = new IkDebugHelper(skeleton, { bones: false });
    expect(helper.size).toBeCloseTo(0.03 * Math.hypot(0, 1, 0.2), 12);
    helper.update(restModelMatrices(skeleton));
    expect(helper.geometry.drawRange.count).toBe(0);
    expect(helper.frustumCulled).toBe(false);
    expect(() => helper.update(new Float64Array(16))).toThrow(
      expect.objectContaining({ code: 'pose/buffer-size' }),
    );
    expect(() => new IkDebugHelper(skeleton, { chains: [[0, 9]] })).toThrow(
      expect.objectContaining({ code: 'ik/invalid-joint' }),
    );
    expect(() => new IkDebugHelper(skeleton, { maxMarkers: -1 })).toThrow(
      expect.objectContaining({ code: 'ik/invalid-option' }),
    );
    expect(() => new IkDebugHelper(skeleton, { size: 0 })).toThrow(
      expect.objectContaining({ code: 'ik/invalid-option' }),
    );
  });
});
