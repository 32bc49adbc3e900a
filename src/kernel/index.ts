/**
 * The kernel layer: pure functions over flat typed arrays with offsets. Output first, safe when the
 * output aliases an input, no allocation, no trigonometry.
 *
 * @packageDocumentation
 */
export * from './aim.js';
export * from './blend.js';
export * from './ccd.js';
export * from './chain-line.js';
export * from './fabrik.js';
export * from './joint-limits.js';
export * from './keyframes.js';
export * from './local-to-model.js';
export * as mat4 from './mat4.js';
export * as quat from './quat.js';
export * from './skin-palette.js';
export * from './skinning.js';
export * as trs from './trs.js';
export * from './turn-step-limit.js';
export * from './two-bone.js';
export * from './two-bone-batch.js';
export * from './two-bone-hinge-leg.js';
export type { NumericArray } from './types.js';
export * as vec3 from './vec3.js';
