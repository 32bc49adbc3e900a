/**
 * A GLB without its images, for three.js's GLTFLoader in Node (which cannot decode them): shared
 * by the benches that load a glTF through three.js.
 */

/**
 * Node has no image decoder, so GLTFLoader would fail on textures: drop them from the JSON chunk
 * and re-pack the GLB with the BIN chunk byte for byte (a glTF writer would re-encode accessors).
 */
export function glbWithoutTextures(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  delete json.images;
  delete json.textures;
  delete json.samplers;
  const strip = (value) => {
    if (typeof value !== 'object' || value === null) return;
    for (const key of Object.keys(value)) {
      if (key.endsWith('Texture')) delete value[key];
      else strip(value[key]);
    }
  };
  strip(json.materials);
  const binAt = 20 + jsonLength;
  const bin =
    binAt + 8 <= bytes.length ? bytes.subarray(binAt + 8, binAt + 8 + view.getUint32(binAt, true)) : null;
  return packGlb(json, bin);
}

function packGlb(json, bin) {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonChunk = new Uint8Array(Math.ceil(text.length / 4) * 4).fill(0x20); // padded with spaces
  jsonChunk.set(text);
  const binLength = bin === null ? 0 : Math.ceil(bin.length / 4) * 4;
  const out = new Uint8Array(20 + jsonChunk.length + (bin === null ? 0 : 8 + binLength));
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonChunk.length, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.set(jsonChunk, 20);
  if (bin !== null) {
    const at = 20 + jsonChunk.length;
    view.setUint32(at, binLength, true);
    view.setUint32(at + 4, 0x004e4942, true); // 'BIN\0'
    out.set(bin, at + 8);
  }
  return out.buffer;
}
