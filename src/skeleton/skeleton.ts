/**
 * The immutable joint hierarchy of a character.
 *
 * @packageDocumentation
 */
import { checkArrayArg, checkObjectArg, checkStringArg, describeArg } from '../arguments.js';
import { TendonError } from '../errors.js';

/** The plain data a {@link Skeleton} is built from. Joints may be listed in any order. */
export interface SkeletonDefinition {
  /** Unique, non-empty joint names. */
  readonly names: readonly string[];
  /** Parent index of each joint in this definition, `−1` for a root. */
  readonly parents: ArrayLike<number>;
  /** `3·n` rest local translations; zeros when omitted. */
  readonly restTranslations?: ArrayLike<number>;
  /**
   * `4·n` rest local rotations `(x, y, z, w)`, normalized on build (one already unit, its squared length
   * within 2e-15 of 1, is kept bit for bit); identities when omitted.
   */
  readonly restRotations?: ArrayLike<number>;
  /** `3·n` rest local scales; ones when omitted. */
  readonly restScales?: ArrayLike<number>;
}

/**
 * A joint hierarchy: names, parents, rest pose. Immutable once built (its arrays are shared with
 * every pose and clip bound to it: treat them as read-only).
 *
 * Joints are stored parent-before-child, so one forward pass computes every model matrix. When the
 * definition is already in that order, it is kept as is; otherwise joints are reordered depth-first
 * from the roots (in their given order), and {@link Skeleton.sourceIndices} maps each joint back to
 * its place in the definition.
 */
export class Skeleton {
  /** Number of joints. */
  readonly jointCount: number;
  /** Joint names, by joint index. */
  readonly names: readonly string[];
  /** Parent index per joint, `−1` for roots; every parent index is smaller than its child's. */
  readonly parents: Int32Array;
  /**
   * One past the last joint of each joint's subtree range: the joints `j … subtreeEnds[j] − 1`
   * include every descendant of `j` (exactly its descendants when the order is depth-first), so a
   * partial forward-kinematics update of that range refreshes the whole subtree.
   */
  readonly subtreeEnds: Int32Array;
  /** Index in the {@link SkeletonDefinition} each joint came from. */
  readonly sourceIndices: Int32Array;
  /** `3·n` rest local translations. */
  readonly restTranslations: Float64Array;
  /** `4·n` rest local rotations, unit quaternions `(x, y, z, w)`. */
  readonly restRotations: Float64Array;
  /** `3·n` rest local scales. */
  readonly restScales: Float64Array;
  private readonly byName: ReadonlyMap<string, number>;

  private constructor(
    names: readonly string[],
    parents: Int32Array,
    sourceIndices: Int32Array,
    t: Float64Array,
    r: Float64Array,
    s: Float64Array,
  ) {
    this.jointCount = names.length;
    this.names = Object.freeze(names.slice());
    this.parents = parents;
    this.sourceIndices = sourceIndices;
    this.restTranslations = t;
    this.restRotations = r;
    this.restScales = s;
    const byName = new Map<string, number>();
    names.forEach((name, i) => {
      byName.set(name, i);
    });
    this.byName = byName;
    const ends = new Int32Array(names.length);
    for (let i = 0; i < names.length; i++) ends[i] = i + 1;
    for (let i = names.length - 1; i >= 0; i--) {
      const p = parents[i];
      if (p >= 0 && ends[i] > ends[p]) ends[p] = ends[i];
    }
    this.subtreeEnds = ends;
  }

  /**
   * Validates a definition and builds a skeleton from it.
   *
   * @throws {@link TendonError} `skeleton/empty`, `skeleton/array-size`, `skeleton/invalid-name`,
   *   `skeleton/duplicate-name`, `skeleton/parent-out-of-range`, `skeleton/cycle` or
   *   `skeleton/not-finite`, naming the joint at fault.
   */
  static create(definition: SkeletonDefinition): Skeleton {
    checkObjectArg(definition, 'Skeleton.create', 'the definition');
    const { names, parents } = definition;
    checkArrayArg(names, 'Skeleton.create', 'names');
    checkArrayArg(parents, 'Skeleton.create', 'parents');
    const n = names.length;
    if (n === 0) throw new TendonError('skeleton/empty', 'Skeleton: a skeleton needs at least one joint');
    if (parents.length !== n) {
      throw new TendonError(
        'skeleton/array-size',
        `Skeleton: ${n} names but ${parents.length} parents; there must be one parent per joint`,
      );
    }
    checkSize('restTranslations', definition.restTranslations, 3 * n);
    checkSize('restRotations', definition.restRotations, 4 * n);
    checkSize('restScales', definition.restScales, 3 * n);
    const seen = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const name = names[i];
      if (typeof name !== 'string' || name.length === 0) {
        throw new TendonError(
          'skeleton/invalid-name',
          `Skeleton: joint ${i} has no name (names must be non-empty)`,
        );
      }
      const other = seen.get(name);
      if (other !== undefined) {
        throw new TendonError(
          'skeleton/duplicate-name',
          `Skeleton: joints ${other} and ${i} are both named "${name}"; names must be unique`,
        );
      }
      seen.set(name, i);
    }
    let ordered = true;
    for (let i = 0; i < n; i++) {
      const p = parents[i];
      if (!Number.isInteger(p) || p < -1 || p >= n || p === i) {
        throw new TendonError(
          'skeleton/parent-out-of-range',
          `Skeleton: joint "${names[i]}" has parent ${p}; a parent is -1 (root) or another joint's index 0..${n - 1}`,
        );
      }
      if (p >= i) ordered = false;
    }
    const order = ordered ? identityOrder(n) : depthFirstOrder(names, parents);
    const t = new Float64Array(3 * n);
    const r = new Float64Array(4 * n);
    const s = new Float64Array(3 * n);
    const newIndex = new Int32Array(n);
    for (let k = 0; k < n; k++) newIndex[order[k]] = k;
    const outParents = new Int32Array(n);
    const outNames: string[] = [];
    for (let k = 0; k < n; k++) {
      const src = order[k];
      outNames.push(names[src]);
      const p = parents[src];
      outParents[k] = p < 0 ? -1 : newIndex[p];
      for (let c = 0; c < 3; c++) {
        t[3 * k + c] = definition.restTranslations ? definition.restTranslations[3 * src + c] : 0;
        s[3 * k + c] = definition.restScales ? definition.restScales[3 * src + c] : 1;
      }
      let lenSq = 0;
      for (let c = 0; c < 4; c++) {
        const v = definition.restRotations ? definition.restRotations[4 * src + c] : c === 3 ? 1 : 0;
        r[4 * k + c] = v;
        lenSq += v * v;
      }
      for (let c = 0; c < 10; c++) {
        const v = c < 3 ? t[3 * k + c] : c < 7 ? r[4 * k + c - 3] : s[3 * k + c - 7];
        if (!Number.isFinite(v)) {
          const field = c < 3 ? 'translation' : c < 7 ? 'rotation' : 'scale';
          throw new TendonError(
            'skeleton/not-finite',
            `Skeleton: joint "${names[src]}" has a non-finite rest ${field}`,
          );
        }
      }
      // (Too large to square too: [1e200, 1e200, 0, 0] was stored as [0, 0, 0, 0], and every
      // pose of the skeleton then refused.)
      if (lenSq === 0 || lenSq === Number.POSITIVE_INFINITY) {
        throw new TendonError(
          'skeleton/not-finite',
          `Skeleton: joint "${names[src]}" has a rest rotation quaternion whose squared length ${lenSq === 0 ? 'underflows to 0' : 'overflows'}`,
        );
      }
      // One already unit to rounding is kept as it is: normalizing again may move its last bit,
      // and a skeleton built from another's rest arrays (a worker's copy) must be the same bits.
      // (A normalized quaternion's squared length is within a few ulps of 1, under 1e-15.)
      const off = lenSq - 1;
      if (off > 2e-15 || off < -2e-15) {
        const inv = 1 / Math.sqrt(lenSq);
        for (let c = 0; c < 4; c++) r[4 * k + c] *= inv;
      }
    }
    return new Skeleton(outNames, outParents, order, t, r, s);
  }

  /** Index of the joint with this name, or `−1`. */
  indexOf(name: string): number {
    checkStringArg(name, 'Skeleton.indexOf', 'the name');
    return this.byName.get(name) ?? -1;
  }

  /**
   * Index of the joint with this name.
   *
   * @throws {@link TendonError} `skeleton/unknown-joint` when there is none.
   */
  jointIndex(name: string): number {
    checkStringArg(name, 'Skeleton.jointIndex', 'the name');
    const i = this.byName.get(name);
    if (i === undefined) {
      throw new TendonError('skeleton/unknown-joint', `Skeleton: no joint is named "${name}"`);
    }
    return i;
  }

  /**
   * The joints strictly between `top` and `joint`, its descendant, `top`'s child first: twist
   * bones and the like inside a chain. Empty where `joint` is `top` or its child; the path up to
   * the root where `top` is not an ancestor of `joint`.
   *
   * @throws {@link TendonError} `argument/invalid` for a `top` or `joint` that is not a joint index.
   */
  jointsBetween(top: number, joint: number): number[] {
    const n = this.parents.length;
    for (const [what, j] of [
      ['top', top],
      ['joint', joint],
    ] as const) {
      if (!(Number.isInteger(j) && j >= 0 && j < n)) {
        throw new TendonError(
          'argument/invalid',
          `Skeleton.jointsBetween: ${what} ${describeArg(j)} is not a joint index (0 to ${n - 1})`,
        );
      }
    }
    const path: number[] = [];
    if (joint === top) return path;
    for (let j = this.parents[joint]; j !== top && j >= 0; j = this.parents[j]) path.push(j);
    return path.reverse();
  }

  /** `true` when `ancestor` is `joint` itself or one of its ancestors. */
  isAncestor(ancestor: number, joint: number): boolean {
    // A joint outside the skeleton has no ancestors (and must not walk parents[undefined]).
    if (!(Number.isInteger(joint) && joint >= 0 && joint < this.parents.length)) return false;
    for (let j = joint; j >= 0; j = this.parents[j]) if (j === ancestor) return true;
    return false;
  }
}

function checkSize(field: string, array: ArrayLike<number> | undefined, expected: number): void {
  if (array !== undefined) checkArrayArg(array, 'Skeleton.create', field);
  if (array !== undefined && array.length !== expected) {
    throw new TendonError(
      'skeleton/array-size',
      `Skeleton: ${field} has ${array.length} numbers; expected ${expected} for ${expected / (field === 'restRotations' ? 4 : 3)} joints`,
    );
  }
}

function identityOrder(n: number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}

/** Depth-first preorder from the roots; every joint not reached hangs on a cycle. */
function depthFirstOrder(names: readonly string[], parents: ArrayLike<number>): Int32Array {
  const n = names.length;
  const children: number[][] = Array.from({ length: n }, () => []);
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = parents[i];
    if (p < 0) roots.push(i);
    else children[p].push(i);
  }
  const order = new Int32Array(n);
  let count = 0;
  const stack: number[] = [];
  for (let r = roots.length - 1; r >= 0; r--) stack.push(roots[r]);
  while (stack.length > 0) {
    const j = stack.pop()!;
    order[count++] = j;
    const c = children[j];
    for (let k = c.length - 1; k >= 0; k--) stack.push(c[k]);
  }
  if (count < n) {
    const reached = new Uint8Array(n);
    for (let k = 0; k < count; k++) reached[order[k]] = 1;
    // Walk up from an unreached joint until a joint repeats: that loop is the cycle.
    let j = 0;
    while (reached[j]) j++;
    const onPath = new Map<number, number>();
    const path: number[] = [];
    while (!onPath.has(j)) {
      onPath.set(j, path.length);
      path.push(j);
      j = parents[j];
    }
    const cycle = path.slice(onPath.get(j)).map((i) => `"${names[i]}"`);
    throw new TendonError(
      'skeleton/cycle',
      `Skeleton: the parents of ${cycle.join(' -> ')} form a cycle; a hierarchy must be a forest`,
    );
  }
  return order;
}
