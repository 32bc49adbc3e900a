/**
 * Loads a glTF with three.js's own GLTFLoader in Node, as an independent oracle.
 *
 * Node has no image decoder, so textures are removed from the JSON (and only from the JSON: the
 * binary chunk, node transforms and accessors reach three.js byte for byte; a round trip through a
 * glTF writer would round near-identity transforms and change what is being compared).
 */
import { KeyframeTrack, type Object3D, QuaternionKeyframeTrack } from 'three';
import { type GLTF, GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

export interface ThreeGltf {
  readonly gltf: GLTF;
  /** The three.js object made for each glTF node index. */
  readonly objectOfNode: Map<number, Object3D>;
}

/**
 * three.js stores keyframes and interpolated values in Float32Array by default, which rounds every
 * sampled value to 7 digits. The oracle runs its tracks in float64 so that the comparison measures
 * the algorithms (interpolation, hierarchy, skinning), not the storage precision.
 */
export function useFloat64Tracks(): void {
  KeyframeTrack.prototype.TimeBufferType = Float64Array;
  KeyframeTrack.prototype.ValueBufferType = Float64Array;
}

type Json = Record<string, unknown>;

function stripTextures(json: Json): void {
  delete json.images;
  delete json.textures;
  delete json.samplers;
  const strip = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const key of Object.keys(value)) {
      if (key.endsWith('Texture')) delete (value as Json)[key];
      else strip((value as Json)[key]);
    }
  };
  strip(json.materials);
}

function packGlb(json: Json, bin: Uint8Array): ArrayBuffer {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonBytes = new Uint8Array(Math.ceil(text.length / 4) * 4).fill(0x20);
  jsonBytes.set(text);
  const binBytes = new Uint8Array(Math.ceil(bin.length / 4) * 4);
  binBytes.set(bin);
  const out = new Uint8Array(12 + 8 + jsonBytes.length + (bin.length > 0 ? 8 + binBytes.length : 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, jsonBytes.length, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.set(jsonBytes, 20);
  if (bin.length > 0) {
    const at = 20 + jsonBytes.length;
    view.setUint32(at, binBytes.length, true);
    view.setUint32(at + 4, 0x004e4942, true);
    out.set(binBytes, at + 8);
  }
  return out.buffer;
}

export async function loadWithThree(bytes: Uint8Array): Promise<ThreeGltf> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let input: ArrayBuffer | string;
  if (bytes.byteLength > 20 && view.getUint32(0, true) === 0x46546c67) {
    const jsonLength = view.getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as Json;
    stripTextures(json);
    const binAt = 20 + jsonLength;
    const bin =
      binAt + 8 <= bytes.length
        ? bytes.subarray(binAt + 8, binAt + 8 + view.getUint32(binAt, true))
        : bytes.subarray(0, 0);
    input = packGlb(json, bin);
  } else {
    // GLTFLoader fetches data: URIs with fetch (Node has it) and reports progress with
    // ProgressEvent (Node lacks it): a minimal stand-in is enough.
    const json = JSON.parse(new TextDecoder().decode(bytes)) as Json;
    stripTextures(json);
    const scope = globalThis as { ProgressEvent?: unknown };
    scope.ProgressEvent ??= class ProgressEvent extends Event {
      readonly lengthComputable: boolean;
      readonly loaded: number;
      readonly total: number;
      constructor(type: string, init: { lengthComputable?: boolean; loaded?: number; total?: number } = {}) {
        super(type);
        this.lengthComputable = init.lengthComputable ?? false;
        this.loaded = init.loaded ?? 0;
        this.total = init.total ?? 0;
      }
    };
    input = JSON.stringify(json);
  }
  const gltf = await new GLTFLoader().parseAsync(input, '');
  // glTF requires unit rotation keys, but files round them (SimpleSkin writes 0.707 for √½, 1.5e-4
  // off unit); three.js uses them as stored, which turns the error into a scale of the matrix.
  // tendon normalizes keys on import; the oracle gets the same normalized keys.
  for (const clip of gltf.animations) {
    for (const track of clip.tracks) {
      // Cubic tracks hold tangents next to the values (3 quaternions per key): leave those alone.
      if (!(track instanceof QuaternionKeyframeTrack) || track.values.length !== 4 * track.times.length)
        continue;
      const v = track.values;
      for (let i = 0; i < v.length; i += 4) {
        const inv = 1 / Math.hypot(v[i], v[i + 1], v[i + 2], v[i + 3]);
        for (let c = 0; c < 4; c++) v[i + c] *= inv;
      }
    }
  }
  const objectOfNode = new Map<number, Object3D>();
  const associations = gltf.parser.associations as Map<Object3D, { nodes?: number }>;
  for (const [object, info] of associations) {
    if (info !== undefined && info.nodes !== undefined && !objectOfNode.has(info.nodes))
      objectOfNode.set(info.nodes, object);
  }
  return { gltf, objectOfNode };
}
