/**
 * Joint names made unique, as the importers and the three.js binding name their joints.
 *
 * @packageDocumentation
 */

/**
 * `wanted` made unique: each name as it is the first time it comes; a repeat gets `_` and
 * `suffix(i)` appended (and `_1`, `_2`, … after that while the result is taken), never a name
 * another joint has or is given: bones named `A, A, A_1` become `A, A_<suffix>, A_1`, not a second
 * `A` named `A_1` and the real `A_1` renamed.
 */
export function uniqueNames(wanted: readonly string[], suffix: (i: number) => number): string[] {
  const all = new Set(wanted);
  const used = new Set<string>();
  return wanted.map((name, i) => {
    let unique = name;
    if (used.has(unique)) {
      const base = `${name}_${suffix(i)}`;
      unique = base;
      for (let m = 1; used.has(unique) || all.has(unique); m++) unique = `${base}_${m}`;
    }
    used.add(unique);
    return unique;
  });
}
