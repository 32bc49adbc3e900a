/**
 * A flat array of numbers that kernels read from and write to at an offset.
 *
 * Kernels accept any of the three so that a pose (`Float64Array`), a GPU palette (`Float32Array`)
 * and a test's literal (`number[]`) all work; hot paths inside tendon use `Float64Array` only, which
 * keeps their call sites monomorphic.
 */
export type NumericArray = Float64Array | Float32Array | number[];
