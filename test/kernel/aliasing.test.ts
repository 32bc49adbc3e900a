/**
 * The output-first contract of every kernel with an `(out, outOffset)` pair: results do not depend
 * on where the operands live (offsets inside bigger arrays, plain `number[]`), nothing outside the
 * output slot is written, inputs are never modified, and `out` may alias any input at the same
 * offset or at an overlapping one.
 */
import { describe, expect, it } from 'vitest';
import * as mat4 from '../../src/kernel/mat4.js';
import * as quat from '../../src/kernel/quat.js';
import * as trs from '../../src/kernel/trs.js';
import type { NumericArray } from '../../src/kernel/types.js';
import * as vec3 from '../../src/kernel/vec3.js';
import {
  embed,
  expectGarbageUntouched,
  expectIdentical,
  randInt,
  randomQuat,
  randomScale,
  randomUnitVec3,
  randomVec3,
  rng,
  slice,
  uniform,
} from './helpers.js';

type Kind = 'v3' | 'unit3' | 'q' | 'affine' | 'm4' | 'anyq' | 'param';

interface Spec {
  name: string;
  outLen: number;
  inputs: Kind[];
  /** Scalar arguments after the array operands (e.g. `t`), drawn per trial. */
  scalars?: (r: () => number) => number[];
  call: (out: NumericArray, o: number, ins: NumericArray[], offs: number[], sc: number[]) => void;
}

const LEN: Record<Kind, number> = { v3: 3, unit3: 3, q: 4, anyq: 4, affine: 16, m4: 16, param: 1 };

function gen(kind: Kind, r: () => number): number[] {
  switch (kind) {
    case 'v3':
      return randomVec3(r, 5);
    case 'unit3':
      return randomUnitVec3(r);
    case 'q':
      return randomQuat(r);
    case 'anyq':
      return [uniform(r, -2, 2), uniform(r, -2, 2), uniform(r, -2, 2), uniform(r, -2, 2)];
    case 'affine': {
      const m = new Array<number>(16);
      trs.compose(m, 0, randomVec3(r, 5), 0, randomQuat(r), 0, randomScale(r), 0);
      return m;
    }
    case 'm4':
      return Array.from({ length: 16 }, () => uniform(r, -2, 2));
    case 'param':
      return [r()];
  }
}

const t01 = (r: () => number) => [r()];

const SPECS: Spec[] = [
  { name: 'vec3.copy', outLen: 3, inputs: ['v3'], call: (o, oo, i, io) => vec3.copy(o, oo, i[0], io[0]) },
  {
    name: 'vec3.add',
    outLen: 3,
    inputs: ['v3', 'v3'],
    call: (o, oo, i, io) => vec3.add(o, oo, i[0], io[0], i[1], io[1]),
  },
  {
    name: 'vec3.sub',
    outLen: 3,
    inputs: ['v3', 'v3'],
    call: (o, oo, i, io) => vec3.sub(o, oo, i[0], io[0], i[1], io[1]),
  },
  {
    name: 'vec3.scale',
    outLen: 3,
    inputs: ['v3'],
    scalars: (r) => [uniform(r, -3, 3)],
    call: (o, oo, i, io, s) => vec3.scale(o, oo, i[0], io[0], s[0]),
  },
  {
    name: 'vec3.scaleAndAdd',
    outLen: 3,
    inputs: ['v3', 'v3'],
    scalars: (r) => [uniform(r, -3, 3)],
    call: (o, oo, i, io, s) => vec3.scaleAndAdd(o, oo, i[0], io[0], i[1], io[1], s[0]),
  },
  {
    name: 'vec3.cross',
    outLen: 3,
    inputs: ['v3', 'v3'],
    call: (o, oo, i, io) => vec3.cross(o, oo, i[0], io[0], i[1], io[1]),
  },
  {
    name: 'vec3.normalize',
    outLen: 3,
    inputs: ['v3'],
    call: (o, oo, i, io) => vec3.normalize(o, oo, i[0], io[0]),
  },
  {
    name: 'vec3.lerp',
    outLen: 3,
    inputs: ['v3', 'v3'],
    scalars: t01,
    call: (o, oo, i, io, s) => vec3.lerp(o, oo, i[0], io[0], i[1], io[1], s[0]),
  },
  {
    name: 'vec3.transformPoint',
    outLen: 3,
    inputs: ['affine', 'v3'],
    call: (o, oo, i, io) => vec3.transformPoint(o, oo, i[0], io[0], i[1], io[1]),
  },
  {
    name: 'vec3.transformDirection',
    outLen: 3,
    inputs: ['affine', 'v3'],
    call: (o, oo, i, io) => vec3.transformDirection(o, oo, i[0], io[0], i[1], io[1]),
  },
  { name: 'quat.copy', outLen: 4, inputs: ['anyq'], call: (o, oo, i, io) => quat.copy(o, oo, i[0], io[0]) },
  {
    name: 'quat.multiply',
    outLen: 4,
    inputs: ['anyq', 'anyq'],
    call: (o, oo, i, io) => quat.multiply(o, oo, i[0], io[0], i[1], io[1]),
  },
  {
    name: 'quat.conjugate',
    outLen: 4,
    inputs: ['anyq'],
    call: (o, oo, i, io) => quat.conjugate(o, oo, i[0], io[0]),
  },
  {
    name: 'quat.invert',
    outLen: 4,
    inputs: ['anyq'],
    call: (o, oo, i, io) => quat.invert(o, oo, i[0], io[0]),
  },
  {
    name: 'quat.normalize',
    outLen: 4,
    inputs: ['anyq'],
    call: (o, oo, i, io) => quat.normalize(o, oo, i[0], io[0]),
  },
  {
    name: 'quat.rotateVec3',
    outLen: 3,
    inputs: ['q', 'v3'],
    call: (o, oo, i, io) => quat.rotateVec3(o, oo, i[0], io[0], i[1], io[1]),
  },
  {
    name: 'quat.slerp',
    outLen: 4,
    inputs: ['q', 'q'],
    scalars: t01,
    call: (o, oo, i, io, s) => quat.slerp(o, oo, i[0], io[0], i[1], io[1], s[0]),
  },
  {
    name: 'quat.slerpFrom',
    outLen: 4,
    inputs: ['q', 'q', 'param'],
    // (params is typed Float64Array; the number[] run passes a plain array, which works the same)
    call: (o, oo, i, io) => quat.slerpFrom(o, oo, i[0], io[0], i[1], io[1], i[2] as Float64Array, io[2]),
  },
  {
    name: 'quat.nlerp',
    outLen: 4,
    inputs: ['q', 'q'],
    scalars: t01,
    call: (o, oo, i, io, s) => quat.nlerp(o, oo, i[0], io[0], i[1], io[1], s[0]),
  },
  {
    name: 'quat.fromMat4',
    outLen: 4,
    inputs: ['affine'],
    call: (o, oo, i, io) => quat.fromMat4(o, oo, i[0], io[0]),
  },
  {
    name: 'quat.fromAxisCosSin',
    outLen: 4,
    inputs: ['unit3', 'v3'],
    call: (o, oo, i, io) => quat.fromAxisCosSin(o, oo, i[0], io[0], i[1], io[1]),
  },
  {
    name: 'quat.fromTo',
    outLen: 4,
    inputs: ['unit3', 'unit3'],
    call: (o, oo, i, io) => quat.fromTo(o, oo, i[0], io[0], i[1], io[1]),
  },
  { name: 'mat4.copy', outLen: 16, inputs: ['m4'], call: (o, oo, i, io) => mat4.copy(o, oo, i[0], io[0]) },
  {
    name: 'mat4.multiply',
    outLen: 16,
    inputs: ['m4', 'm4'],
    call: (o, oo, i, io) => mat4.multiply(o, oo, i[0], io[0], i[1], io[1]),
  },
  {
    name: 'mat4.multiplyAffine',
    outLen: 16,
    inputs: ['affine', 'affine'],
    call: (o, oo, i, io) => mat4.multiplyAffine(o, oo, i[0], io[0], i[1], io[1]),
  },
  {
    name: 'mat4.invert',
    outLen: 16,
    inputs: ['m4'],
    call: (o, oo, i, io) => {
      mat4.invert(o, oo, i[0], io[0]);
    },
  },
  {
    name: 'mat4.invertAffine',
    outLen: 16,
    inputs: ['affine'],
    call: (o, oo, i, io) => {
      mat4.invertAffine(o, oo, i[0], io[0]);
    },
  },
  {
    name: 'mat4.invertRigid',
    outLen: 16,
    inputs: ['affine'],
    call: (o, oo, i, io) => mat4.invertRigid(o, oo, i[0], io[0]),
  },
  {
    name: 'mat4.fromQuat',
    outLen: 16,
    inputs: ['q'],
    call: (o, oo, i, io) => mat4.fromQuat(o, oo, i[0], io[0]),
  },
  {
    name: 'trs.compose',
    outLen: 16,
    inputs: ['v3', 'q', 'v3'],
    call: (o, oo, i, io) => trs.compose(o, oo, i[0], io[0], i[1], io[1], i[2], io[2]),
  },
  {
    name: 'trs.composeAfter',
    outLen: 16,
    inputs: ['affine', 'v3', 'q', 'v3'],
    call: (o, oo, i, io) => trs.composeAfter(o, oo, i[0], io[0], i[1], io[1], i[2], io[2], i[3], io[3]),
  },
];

const TRIALS = 40;

/** Reference result: every operand in its own array at offset 0. */
function reference(spec: Spec, ins: number[][], sc: number[]): number[] {
  const out = new Array<number>(spec.outLen).fill(0);
  spec.call(
    out,
    0,
    ins.map((a) => a.slice()),
    ins.map(() => 0),
    sc,
  );
  return out;
}

function draw(spec: Spec, r: () => number): { ins: number[][]; sc: number[] } {
  return { ins: spec.inputs.map((k) => gen(k, r)), sc: spec.scalars ? spec.scalars(r) : [] };
}

/**
 * Runs `spec` with `out` in the same array as input `which`, `shift` elements after it (negative:
 * before), and returns the output slot.
 */
function aliased(spec: Spec, ins: number[][], sc: number[], which: number, shift: number, r: () => number) {
  const base = 20;
  const shared = embed(ins[which], base, r, 24);
  const arrays: NumericArray[] = ins.map((a, k) => (k === which ? shared : Float64Array.from(a)));
  const offs = ins.map((_, k) => (k === which ? base : 0));
  spec.call(shared, base + shift, arrays, offs, sc);
  return slice(shared, base + shift, spec.outLen);
}

function shifts(spec: Spec, which: number): number[] {
  const s: number[] = [];
  for (let d = -(spec.outLen - 1); d <= LEN[spec.inputs[which]] - 1; d++) s.push(d);
  return s;
}

describe.each(SPECS)('$name', (spec) => {
  it('gives the same result at non-zero offsets and from number[], writes only its slot, reads only', () => {
    const r = rng(0x51ce + spec.name.length);
    for (let trial = 0; trial < TRIALS; trial++) {
      const { ins, sc } = draw(spec, r);
      const expected = reference(spec, ins, sc);
      // Float64Array operands at random offsets, surrounded by garbage.
      const offs = ins.map(() => randInt(r, 1, 9));
      const bufs = ins.map((a, k) => embed(a, offs[k], r));
      const before = bufs.map((b) => b.slice());
      const oo = randInt(r, 1, 9);
      const out = embed(new Array(spec.outLen).fill(0), oo, r);
      const outBefore = out.slice();
      spec.call(out, oo, bufs, offs, sc);
      expectIdentical(slice(out, oo, spec.outLen), expected, `${spec.name} at offsets`);
      expectGarbageUntouched(out, outBefore, oo, spec.outLen, `${spec.name} out`);
      for (let k = 0; k < bufs.length; k++) expectIdentical(bufs[k], before[k], `${spec.name} input ${k}`);
      // Plain arrays.
      const plainOut: number[] = [7, 7, 7, ...new Array<number>(spec.outLen).fill(0)];
      spec.call(
        plainOut,
        3,
        ins.map((a) => a.slice()),
        ins.map(() => 0),
        sc,
      );
      expectIdentical(plainOut.slice(3), expected, `${spec.name} number[]`);
      expect(plainOut.slice(0, 3)).toEqual([7, 7, 7]);
    }
  });

  describe.each(spec.inputs.map((_, which) => which))('out aliasing input %i', (which) => {
    it('at the same offset', () => {
      const r = rng(0xa11a5 + which);
      for (let trial = 0; trial < TRIALS; trial++) {
        const { ins, sc } = draw(spec, r);
        expectIdentical(aliased(spec, ins, sc, which, 0, r), reference(spec, ins, sc), spec.name);
      }
    });

    const overlapping = () => {
      const r = rng(0x0e41a9 + which);
      for (let trial = 0; trial < TRIALS; trial++) {
        const { ins, sc } = draw(spec, r);
        const expected = reference(spec, ins, sc);
        for (const shift of shifts(spec, which)) {
          expectIdentical(aliased(spec, ins, sc, which, shift, r), expected, `${spec.name} shift ${shift}`);
        }
      }
    };
    // Every kernel reads all its inputs before writing, so any overlap is safe.
    it('at an overlapping, shifted offset', overlapping);
  });
});
