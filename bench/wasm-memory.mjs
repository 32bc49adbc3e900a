/**
 * Arrays in a WebAssembly module's memory, for the WebAssembly experiments (wasm-kernels.mjs,
 * wasm-two-bone.mjs).
 */

/**
 * Grows `memory` to at least `bytes` and returns `carve(Type, length)`: a view of `length`
 * elements, one after another from byte 1024 (below it, the module's own data), each 16-byte
 * aligned (the SIMD loads'). Views stay valid: the memory is not grown again.
 */
export function wasmCarver(memory, bytes) {
  memory.grow(Math.ceil(Math.max(0, bytes - memory.buffer.byteLength) / 65536));
  let offset = 1024;
  return (Type, length) => {
    const view = new Type(memory.buffer, offset, length);
    offset = (offset + length * Type.BYTES_PER_ELEMENT + 15) & ~15;
    return view;
  };
}
