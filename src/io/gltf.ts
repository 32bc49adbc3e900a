/**
 * glTF 2.0 import (`.glb` and `.gltf`) through `@gltf-transform/core`, in Node and the browser.
 *
 * @packageDocumentation
 */

import {
  type Accessor,
  type Animation,
  type AnimationChannel,
  type AnimationSampler,
  type Document,
  type JSONDocument,
  Logger,
  type Node,
  WebIO,
} from '@gltf-transform/core';
import { Clip, type Interpolation, type RawTrack, type TrackPath } from '../animation/clip.js';
import { checkNumberArg, checkObjectArg, checkStringArg, optionsArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { Skeleton } from '../skeleton/skeleton.js';
import { uniqueNames } from '../skeleton/unique-names.js';
import { Skin, type SkinnedVertices } from '../skin/skin.js';
import { checkGltfLimits, dataUriBytes } from './gltf-limits.js';

/** Options of {@link importGltf}. */
export interface GltfImportOptions {
  /** A name for error messages and warnings, usually the file name. Default `'gltf'`. */
  readonly source?: string;
  /**
   * External resources of a `.gltf` JSON file (`.bin` buffers, images) by the URI the file gives
   * them. Embedded `data:` URIs need nothing here; `.glb` files need nothing here.
   */
  readonly resources?: Readonly<Record<string, Uint8Array>>;
  /**
   * Most joints a skeleton may have (a skin's joints and the ancestors they need): a file over it
   * is refused. Default 10,000 (game characters have ~20 to ~500).
   */
  readonly maxJoints?: number;
  /** Deepest nesting of nodes a skeleton may have. Default 1,000. */
  readonly maxDepth?: number;
}

/** Default {@link GltfImportOptions.maxJoints}. */
export const GLTF_MAX_JOINTS = 10_000;
/** Default {@link GltfImportOptions.maxDepth}. */
export const GLTF_MAX_DEPTH = 1_000;

/** One skeleton of a glTF file, with what is bound to it. */
export interface GltfSkeleton {
  /**
   * The joints of every skin that shares this joint set, plus every ancestor node they need, so that
   * model space is the glTF scene's space (what the inverse bind matrices expect).
   */
  readonly skeleton: Skeleton;
  /** glTF node index of each joint. */
  readonly nodes: Int32Array;
  /**
   * The distinct skins bound to this skeleton. Skins over the same joints and ancestors share one
   * skeleton; skins that also have the same joint list and inverse bind matrices are one
   * {@link Skin} (one palette to compute and upload, however many glTF skins repeat it).
   */
  readonly skins: Skin[];
  /** Every animation with at least one channel on this skeleton's nodes, as a clip. */
  readonly clips: Clip[];
}

/** A skinned mesh primitive: its vertices, ready for {@link skinMesh} or a GPU upload. */
export interface GltfSkinnedPrimitive extends SkinnedVertices {
  /** `mesh name[primitive index]`. */
  readonly name: string;
  /** The skin the joint indices refer to (palette order). */
  readonly skin: Skin;
  /** glTF node index of the node that instantiates the mesh. */
  readonly node: number;
  /** `3·v` bind-pose positions. */
  readonly positions: Float32Array;
  /** `3·v` normals, when the primitive has them. */
  readonly normals?: Float32Array;
  /** Palette indices, `influences` per vertex (all `JOINTS_n` sets, interleaved per vertex). */
  readonly joints: Uint16Array | Uint32Array;
  /** Weights as floats, renormalized so each vertex's weights sum to 1. */
  readonly weights: Float32Array;
  /** Triangle indices, or `null` for a non-indexed primitive. */
  readonly indices: Uint32Array | null;
}

/** What {@link importGltf} returns. */
export interface GltfImport {
  /** One entry per distinct skeleton, in the order of the first skin using it. */
  readonly skeletons: GltfSkeleton[];
  /** Every distinct skin, in the order of first use (each refers to its skeleton). */
  readonly skins: Skin[];
  /** The {@link Skin} of each glTF skin, by its index in the file (repeats where skins repeat). */
  readonly skinByIndex: Skin[];
  /** Every skinned mesh primitive. */
  readonly primitives: GltfSkinnedPrimitive[];
  /**
   * What was read but not imported, one sentence each: primitives without joints and weights, and
   * per animation the channels no skeleton took (a node outside the skeletons, morph-target
   * `weights`, ...) with their index, node and why, the animation named as dropped if none was.
   */
  readonly warnings: string[];
}

const GLB_MAGIC = 0x46546c67;

/**
 * Reads a glTF 2.0 file and builds a {@link Skeleton} for every skin (its joints and the ancestors
 * they need), its {@link Skin}s with inverse bind matrices (identities when absent), a {@link Clip}
 * per animation, and the skinned primitives' vertex attributes. Handles several skins per file,
 * nodes in any order, sparse accessors, normalized integer weights and `data:` URIs.
 *
 * `data` is a `.glb` (bytes starting with the `glTF` magic) or the text or bytes of a `.gltf` JSON.
 *
 * @throws {@link TendonError} `gltf/parse` (truncated or corrupt bytes, bad JSON, a missing
 *   resource), `gltf/invalid` (an accessor of the wrong type or size, a joint index outside the
 *   skin, keys out of order), or `gltf/no-skin` (the file has no skin), naming the source and the
 *   object at fault.
 */
export async function importGltf(
  data: Uint8Array | ArrayBuffer | string,
  options: GltfImportOptions = {},
): Promise<GltfImport> {
  const checked = optionsArg(options, 'importGltf');
  const source = checked.source ?? 'gltf';
  checkStringArg(source, 'importGltf', 'options.source');
  if (checked.resources !== undefined) {
    checkObjectArg(checked.resources, 'importGltf', 'options.resources');
    for (const [uri, bytes] of Object.entries(checked.resources)) {
      if (!(bytes instanceof Uint8Array)) {
        throw new TendonError(
          'argument/invalid',
          `importGltf: options.resources["${uri}"] is not a Uint8Array`,
        );
      }
    }
  }
  const maxJoints = checked.maxJoints ?? GLTF_MAX_JOINTS;
  const maxDepth = checked.maxDepth ?? GLTF_MAX_DEPTH;
  checkNumberArg(maxJoints, 'importGltf', 'options.maxJoints', 1);
  checkNumberArg(maxDepth, 'importGltf', 'options.maxDepth', 1);
  const document = await readDocument(data, checked, source);
  return buildImport(document, source, maxJoints, maxDepth);
}

async function readDocument(
  data: Uint8Array | ArrayBuffer | string,
  options: GltfImportOptions,
  source: string,
): Promise<Document> {
  const io = new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT));
  const bytes = typeof data === 'string' ? null : data instanceof Uint8Array ? data : new Uint8Array(data);
  try {
    if (bytes !== null && bytes.byteLength >= 4 && readUint32(bytes, 0) === GLB_MAGIC) {
      checkGlbFraming(bytes, source);
      checkGlbLimits(bytes, source);
      return await io.readBinary(bytes);
    }
    const text = bytes === null ? (data as string) : new TextDecoder().decode(bytes);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new TendonError(
        'gltf/parse',
        `${source}: not a .glb and not valid glTF JSON (${String(error)})`,
        {
          cause: error,
        },
      );
    }
    if (typeof json !== 'object' || json === null || !('asset' in json)) {
      throw new TendonError('gltf/parse', `${source}: the JSON has no "asset" object, so it is not glTF`);
    }
    // Without a prototype: a buffer whose URI is "constructor" must not find Object's.
    const resources: Record<string, Uint8Array> = Object.assign(Object.create(null), options.resources);
    checkExternalBuffers(json, resources, source);
    checkGltfLimits(json, source, text.length, (_, uri) =>
      typeof uri === 'string' && resources[uri] !== undefined ? resources[uri].byteLength : dataUriBytes(uri),
    );
    const jsonDoc: JSONDocument = {
      json: json as JSONDocument['json'],
      resources: resources as JSONDocument['resources'],
    };
    return await io.readJSON(jsonDoc);
  } catch (error) {
    if (error instanceof TendonError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new TendonError('gltf/parse', `${source}: could not read the glTF (${message})`, { cause: error });
  }
}

/**
 * A buffer kept in a file of its own must be among `resources`: glTF-Transform would otherwise fail
 * with a TypeError that names neither the buffer nor the option.
 */
function checkExternalBuffers(json: object, resources: Record<string, Uint8Array>, source: string): void {
  const buffers = (json as { buffers?: unknown }).buffers;
  if (!Array.isArray(buffers)) return;
  buffers.forEach((buffer: unknown, i) => {
    const uri = typeof buffer === 'object' && buffer !== null ? (buffer as { uri?: unknown }).uri : undefined;
    if (typeof uri === 'string' && !uri.startsWith('data:') && resources[uri] === undefined) {
      const given = Object.keys(resources);
      throw new TendonError(
        'gltf/parse',
        `${source}: buffer ${i} is the file "${uri}", which is not among options.resources (${
          given.length === 0 ? 'none given' : `given: ${given.map((k) => `"${k}"`).join(', ')}`
        }): pass its bytes as resources["${uri}"], or import the .glb`,
      );
    }
  });
}

function readUint32(bytes: Uint8Array, offset: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(offset, true);
}

/** Checks the GLB header and chunk lengths against the bytes, so a truncated file says so. */
function checkGlbFraming(bytes: Uint8Array, source: string): void {
  if (bytes.byteLength < 20) {
    throw new TendonError(
      'gltf/parse',
      `${source}: the .glb is truncated (${bytes.byteLength} bytes, no chunk)`,
    );
  }
  const declared = readUint32(bytes, 8);
  if (declared > bytes.byteLength) {
    throw new TendonError(
      'gltf/parse',
      `${source}: the .glb header declares ${declared} bytes but the file has ${bytes.byteLength} (truncated)`,
    );
  }
  let offset = 12;
  while (offset + 8 <= declared) {
    const length = readUint32(bytes, offset);
    if (offset + 8 + length > declared) {
      throw new TendonError(
        'gltf/parse',
        `${source}: a .glb chunk at byte ${offset} declares ${length} bytes, past the end of the file (truncated)`,
      );
    }
    offset += 8 + length;
  }
}

/** The JSON chunk of a framed .glb, checked against its BIN chunk before the reader allocates. */
function checkGlbLimits(bytes: Uint8Array, source: string): void {
  const jsonLength = readUint32(bytes, 12);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  } catch (error) {
    throw new TendonError('gltf/parse', `${source}: the .glb's JSON chunk is not JSON (${String(error)})`, {
      cause: error,
    });
  }
  const binStart = 20 + jsonLength + ((4 - (jsonLength % 4)) % 4);
  const binLength = binStart + 8 <= bytes.byteLength ? readUint32(bytes, binStart) : 0;
  checkGltfLimits(json, source, bytes.byteLength, (buffer, uri) =>
    buffer === 0 && uri === undefined ? binLength : dataUriBytes(uri),
  );
}

function buildImport(document: Document, source: string, maxJoints: number, maxDepth: number): GltfImport {
  const root = document.getRoot();
  const allNodes = root.listNodes();
  const nodeIndex = new Map<Node, number>();
  allNodes.forEach((node, i) => {
    nodeIndex.set(node, i);
  });
  const gltfSkins = root.listSkins();
  if (gltfSkins.length === 0) {
    throw new TendonError(
      'gltf/no-skin',
      `${source}: the file has no skin; tendon imports skinned characters (a skin lists the joints)`,
    );
  }
  const warnings: string[] = [];
  const skeletons: GltfSkeleton[] = [];
  const byJointSet = new Map<string, GltfSkeleton>();
  const skins: Skin[] = [];
  const skinOf = new Map<unknown, Skin>();
  const skinByIndex: Skin[] = [];
  gltfSkins.forEach((gltfSkin, skinIndex) => {
    const skinName = gltfSkin.getName() || `skin ${skinIndex}`;
    const joints = gltfSkin.listJoints();
    if (joints.length === 0) {
      throw new TendonError('gltf/invalid', `${source}: skin "${skinName}" lists no joints`);
    }
    if (joints.length > maxJoints) {
      throw new TendonError(
        'gltf/invalid',
        `${source}: skin "${skinName}" has ${joints.length} joints, more than ${maxJoints} (options.maxJoints raises the limit)`,
      );
    }
    const needed = new Set<Node>();
    for (const joint of joints) {
      for (let n: Node | null = joint; n !== null && !needed.has(n); n = n.getParentNode()) {
        needed.add(n);
        if (needed.size > maxJoints) {
          throw new TendonError(
            'gltf/invalid',
            `${source}: skin "${skinName}" needs more than ${maxJoints} joints with their ancestors (options.maxJoints raises the limit)`,
          );
        }
      }
    }
    const key = [...needed]
      .map((n) => nodeIndex.get(n)!)
      .sort((a, b) => a - b)
      .join(',');
    let entry = byJointSet.get(key);
    if (entry === undefined) {
      entry = buildSkeleton(needed, allNodes, nodeIndex, source, maxDepth);
      byJointSet.set(key, entry);
      skeletons.push(entry);
    }
    const jointIndices = joints.map((joint) => indexOfNode(entry!, nodeIndex.get(joint)!));
    const ibmAccessor = gltfSkin.getInverseBindMatrices();
    let ibm: Float64Array | undefined;
    if (ibmAccessor !== null) {
      const where = `${source}: skin "${skinName}" inverseBindMatrices`;
      if (ibmAccessor.getType() !== 'MAT4' || ibmAccessor.getCount() < joints.length) {
        throw new TendonError(
          'gltf/invalid',
          `${where}: expected ${joints.length} MAT4, got ${ibmAccessor.getCount()} ${ibmAccessor.getType()}`,
        );
      }
      ibm = readFloats(ibmAccessor, where).subarray(0, 16 * joints.length);
    }
    const built = wrap(
      () => new Skin(entry!.skeleton, { joints: jointIndices, inverseBindMatrices: ibm, name: skinName }),
      source,
    );
    let skin = entry.skins.find((other) => sameBinding(other, built));
    if (skin === undefined) {
      skin = built;
      entry.skins.push(skin);
      skins.push(skin);
    }
    skinByIndex.push(skin);
    skinOf.set(gltfSkin, skin);
  });
  root.listAnimations().forEach((animation, animationIndex) => {
    const name = animation.getName() || `animation_${animationIndex}`;
    // A channel is dropped only if no skeleton takes it: with several skeletons, each one's clip
    // leaves out the channels of the others.
    const imported = new Uint8Array(animation.listChannels().length);
    let clips = 0;
    for (const entry of skeletons) {
      const clip = buildClip(animation, name, entry, nodeIndex, source, imported);
      if (clip !== null) {
        entry.clips.push(clip);
        clips++;
      }
    }
    warnDroppedChannels(animation, name, imported, clips === 0, nodeIndex, source, warnings);
  });
  const primitives: GltfSkinnedPrimitive[] = [];
  for (const node of allNodes) {
    const mesh = node.getMesh();
    const gltfSkin = node.getSkin();
    if (mesh === null || gltfSkin === null) continue;
    const skin = skinOf.get(gltfSkin)!;
    mesh.listPrimitives().forEach((primitive, p) => {
      const name = `${mesh.getName() || `mesh of node ${nodeIndex.get(node)}`}[${p}]`;
      const built = buildPrimitive(primitive, name, skin, nodeIndex.get(node)!, source);
      if (built !== null) primitives.push(built);
      else warnings.push(`${source}: primitive ${name} has no JOINTS_0/WEIGHTS_0 and was not imported`);
    });
  }
  return { skeletons, skins, skinByIndex, primitives, warnings };
}

function buildSkeleton(
  needed: Set<Node>,
  allNodes: Node[],
  nodeIndex: Map<Node, number>,
  source: string,
  maxDepth: number,
): GltfSkeleton {
  // Depth-first from the roots in file order: parent-first whatever order the file lists nodes in.
  // With an explicit stack, not recursion: a file controls its depth (10,000 nested nodes would
  // overflow the call stack).
  const order: Node[] = [];
  const stack: Node[] = [];
  const depths: number[] = [];
  for (const node of allNodes) {
    const parent = node.getParentNode();
    if (!needed.has(node) || (parent !== null && needed.has(parent))) continue;
    stack.push(node);
    depths.push(1);
    while (stack.length > 0) {
      const next = stack.pop() as Node;
      const depth = depths.pop() as number;
      if (depth > maxDepth) {
        throw new TendonError(
          'gltf/invalid',
          `${source}: node ${nodeIndex.get(next)} is nested more than ${maxDepth} deep (options.maxDepth raises the limit)`,
        );
      }
      order.push(next);
      const children = next.listChildren();
      // Pushed last child first, so the first child is visited first, as the recursion did.
      for (let c = children.length - 1; c >= 0; c--) {
        if (needed.has(children[c])) {
          stack.push(children[c]);
          depths.push(depth + 1);
        }
      }
    }
  }
  const position = new Map<Node, number>();
  order.forEach((node, i) => {
    position.set(node, i);
  });
  const n = order.length;
  const parents = new Int32Array(n);
  const t = new Float64Array(3 * n);
  const r = new Float64Array(4 * n);
  const s = new Float64Array(3 * n);
  const nodes = Int32Array.from(order, (node) => nodeIndex.get(node)!);
  // A repeated name takes its node's index (and never another joint's name).
  const names = uniqueNames(
    order.map((node, i) => node.getName() || `node_${nodes[i]}`),
    (i) => nodes[i],
  );
  order.forEach((node, i) => {
    const index = nodes[i];
    const parent = node.getParentNode();
    parents[i] = parent !== null && position.has(parent) ? position.get(parent)! : -1;
    t.set(trs(node.getTranslation(), 3, source, index, 'translation'), 3 * i);
    r.set(trs(node.getRotation(), 4, source, index, 'rotation'), 4 * i);
    s.set(trs(node.getScale(), 3, source, index, 'scale'), 3 * i);
  });
  const skeleton = wrap(
    () => Skeleton.create({ names, parents, restTranslations: t, restRotations: r, restScales: s }),
    source,
  );
  return { skeleton, nodes, skins: [], clips: [] };
}

/**
 * A node's `translation`, `rotation` or `scale` as the file gives it, checked: exactly `count`
 * finite numbers (a `null`, a 2-number translation or a string is refused, naming the node).
 *
 * @throws {@link TendonError} `gltf/invalid`.
 */
function trs(value: unknown, count: number, source: string, node: number, field: string): ArrayLike<number> {
  const ok =
    value !== null &&
    typeof value === 'object' &&
    (value as ArrayLike<unknown>).length === count &&
    Array.prototype.every.call(value, (x: unknown) => typeof x === 'number' && Number.isFinite(x));
  if (!ok) {
    const shown = Array.isArray(value) ? `[${value.join(', ')}]` : String(value);
    throw new TendonError(
      'gltf/invalid',
      `${source}: nodes[${node}].${field} is ${shown}, not ${count} finite numbers`,
    );
  }
  return value as ArrayLike<number>;
}

/** Same joints and bit-identical inverse bind matrices: the same palette. */
function sameBinding(a: Skin, b: Skin): boolean {
  const same = (x: ArrayLike<number>, y: ArrayLike<number>) => {
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  };
  return same(a.joints, b.joints) && same(a.inverseBindMatrices, b.inverseBindMatrices);
}

function indexOfNode(entry: GltfSkeleton, node: number): number {
  return entry.nodes.indexOf(node);
}

/** Marks in `imported` (by channel index) the channels that became tracks of the clip. */
function buildClip(
  animation: Animation,
  name: string,
  entry: GltfSkeleton,
  nodeIndex: Map<Node, number>,
  source: string,
  imported: Uint8Array,
): Clip | null {
  const tracks: RawTrack[] = [];
  animation.listChannels().forEach((channel, c) => {
    if (channelSkipped(channel) !== null) return;
    const target = channel.getTargetNode() as Node;
    const path = channel.getTargetPath();
    const sampler = channel.getSampler() as AnimationSampler;
    const joint = indexOfNode(entry, nodeIndex.get(target)!);
    if (joint < 0) return;
    const where = `${source}: animation "${name}", channel ${entry.skeleton.names[joint]}.${path}`;
    const input = sampler.getInput();
    const output = sampler.getOutput();
    if (input === null || output === null)
      throw new TendonError('gltf/invalid', `${where}: the sampler has no data`);
    if (input.getType() !== 'SCALAR') {
      throw new TendonError('gltf/invalid', `${where}: key times must be SCALAR, not ${input.getType()}`);
    }
    const expectedType = path === 'rotation' ? 'VEC4' : 'VEC3';
    if (output.getType() !== expectedType) {
      throw new TendonError(
        'gltf/invalid',
        `${where}: values must be ${expectedType}, not ${output.getType()}`,
      );
    }
    tracks.push({
      joint,
      path: path as TrackPath,
      interpolation: sampler.getInterpolation() as Interpolation,
      times: readFloats(input, `${where} times`),
      values: readFloats(output, `${where} values`),
    });
    imported[c] = 1;
  });
  if (tracks.length === 0) return null;
  return wrap(() => Clip.create(entry.skeleton, { name, tracks }), `${source}: animation "${name}"`);
}

/**
 * Why no skeleton imports `channel`, whatever its node (`null`: it is one a skeleton imports if its
 * node is a joint or an ancestor of one). The one rule for {@link buildClip} and the warnings.
 */
function channelSkipped(channel: AnimationChannel): string | null {
  if (channel.getTargetNode() === null) return 'no target node';
  if (channel.getSampler() === null) return 'no sampler';
  const path = channel.getTargetPath();
  if (path === 'weights') return 'morph-target weights';
  if (path !== 'translation' && path !== 'rotation' && path !== 'scale')
    return `path "${path}" not supported`;
  return null;
}

/**
 * Channels named one by one in an animation's warning; the rest are counted, so that a file with
 * thousands of unimported channels gives one short sentence per animation, not thousands.
 */
const LISTED_CHANNELS = 5;

/**
 * One warning per animation with channels no skeleton took (naming the first few, with their node
 * and why), or that gave no clip at all: a caller looking for a missing clip or track finds it here.
 */
function warnDroppedChannels(
  animation: Animation,
  name: string,
  imported: Uint8Array,
  dropped: boolean,
  nodeIndex: Map<Node, number>,
  source: string,
  warnings: string[],
): void {
  const channels = animation.listChannels();
  if (channels.length === 0) {
    if (dropped) warnings.push(`${source}: animation "${name}" dropped: it has no channels`);
    return;
  }
  const listed: string[] = [];
  let count = 0;
  channels.forEach((channel, c) => {
    if (imported[c] === 1) return;
    count++;
    if (listed.length === LISTED_CHANNELS) return;
    const target = channel.getTargetNode();
    const path = channel.getTargetPath();
    let node = '';
    if (target !== null) {
      const index = nodeIndex.get(target)!;
      node = target.getName() ? `node ${index} "${target.getName()}", ` : `node ${index}, `;
    }
    const why = channelSkipped(channel) ?? 'not a joint or an ancestor of one';
    listed.push(`channel ${c} (${node}${path}): ${why}`);
  });
  if (count === 0) return;
  const more = count > listed.length ? `; and ${count - listed.length} more` : '';
  const what = dropped
    ? `animation "${name}" dropped, none of its ${channels.length} channel(s) imported`
    : `animation "${name}": ${count} of ${channels.length} channel(s) not imported`;
  warnings.push(`${source}: ${what}: ${listed.join('; ')}${more}`);
}

function buildPrimitive(
  primitive: ReturnType<NonNullable<ReturnType<Node['getMesh']>>['listPrimitives']>[number],
  name: string,
  skin: Skin,
  node: number,
  source: string,
): GltfSkinnedPrimitive | null {
  const where = `${source}: primitive ${name}`;
  const position = primitive.getAttribute('POSITION');
  if (position === null) throw new TendonError('gltf/invalid', `${where} has no POSITION`);
  const jointSets: Accessor[] = [];
  const weightSets: Accessor[] = [];
  for (let k = 0; ; k++) {
    const j = primitive.getAttribute(`JOINTS_${k}`);
    const w = primitive.getAttribute(`WEIGHTS_${k}`);
    if (j === null || w === null) break;
    jointSets.push(j);
    weightSets.push(w);
  }
  if (jointSets.length === 0) return null;
  const count = position.getCount();
  const influences = 4 * jointSets.length;
  const joints = new Uint32Array(count * influences);
  const weights = new Float32Array(count * influences);
  for (let k = 0; k < jointSets.length; k++) {
    const j = jointSets[k];
    const w = weightSets[k];
    if (
      j.getType() !== 'VEC4' ||
      w.getType() !== 'VEC4' ||
      j.getCount() !== count ||
      w.getCount() !== count
    ) {
      throw new TendonError(
        'gltf/invalid',
        `${where}: JOINTS_${k}/WEIGHTS_${k} must be VEC4 with one element per vertex (${count})`,
      );
    }
    const jointArray = j.getArray();
    if (jointArray === null) throw new TendonError('gltf/invalid', `${where}: JOINTS_${k} has no data`);
    const weightArray = readFloats(w, `${where} WEIGHTS_${k}`);
    for (let v = 0; v < count; v++) {
      for (let c = 0; c < 4; c++) {
        const joint = jointArray[4 * v + c];
        const weight = weightArray[4 * v + c];
        if (weight !== 0 && (!Number.isInteger(joint) || joint < 0 || joint >= skin.jointCount)) {
          throw new TendonError(
            'gltf/invalid',
            `${where}: vertex ${v} refers to joint ${joint}, but skin "${skin.name}" has ${skin.jointCount}`,
          );
        }
        if (!(weight >= 0) || !Number.isFinite(weight)) {
          throw new TendonError(
            'gltf/invalid',
            `${where}: vertex ${v} has weight ${weight}; weights are ≥ 0`,
          );
        }
        joints[v * influences + 4 * k + c] = weight === 0 ? 0 : joint;
        weights[v * influences + 4 * k + c] = weight;
      }
    }
  }
  for (let v = 0; v < count; v++) {
    let total = 0;
    for (let c = 0; c < influences; c++) total += weights[v * influences + c];
    if (total > 0 && total !== 1) {
      const inv = 1 / total;
      for (let c = 0; c < influences; c++) weights[v * influences + c] *= inv;
    }
  }
  const normal = primitive.getAttribute('NORMAL');
  const indices = primitive.getIndices();
  const indexArray = indices?.getArray();
  if (indexArray) {
    // Every index names a vertex the primitive has.
    const vertexCount = position.getCount();
    for (let i = 0; i < indexArray.length; i++) {
      if (!(indexArray[i] < vertexCount)) {
        throw new TendonError(
          'gltf/invalid',
          `${where}: indices[${i}] is ${indexArray[i]}, but the primitive has ${vertexCount} vertices`,
        );
      }
    }
    if (indexArray.length % 3 !== 0 && primitive.getMode() === 4) {
      throw new TendonError(
        'gltf/invalid',
        `${where}: ${indexArray.length} triangle indices, not a multiple of 3`,
      );
    }
  }
  return {
    name,
    skin,
    node,
    positions: Float32Array.from(readFloats(position, `${where} POSITION`)),
    normals: normal === null ? undefined : Float32Array.from(readFloats(normal, `${where} NORMAL`)),
    joints: skin.jointCount <= 65536 ? Uint16Array.from(joints) : joints,
    weights,
    influences,
    indices: indexArray ? Uint32Array.from(indexArray) : null,
  };
}

/** Accessor contents as float64, with normalized integers decoded (glTF §3.11 formulas). */
function readFloats(accessor: Accessor, where: string): Float64Array {
  const array = accessor.getArray();
  if (array === null) throw new TendonError('gltf/invalid', `${where}: the accessor has no data`);
  const out = new Float64Array(array.length);
  if (!accessor.getNormalized() || array instanceof Float32Array) {
    for (let i = 0; i < array.length; i++) out[i] = array[i];
  } else {
    const scale =
      array instanceof Uint8Array
        ? 1 / 255
        : array instanceof Uint16Array
          ? 1 / 65535
          : array instanceof Int8Array
            ? 1 / 127
            : 1 / 32767;
    const signed = array instanceof Int8Array || array instanceof Int16Array;
    for (let i = 0; i < array.length; i++)
      out[i] = signed ? Math.max(array[i] * scale, -1) : array[i] * scale;
  }
  for (let i = 0; i < out.length; i++) {
    if (!Number.isFinite(out[i]))
      throw new TendonError('gltf/invalid', `${where}: element ${i} is not finite`);
  }
  return out;
}

/** Runs a builder and re-labels its TendonError as invalid glTF, keeping its message and cause. */
function wrap<T>(build: () => T, where: string): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof TendonError) {
      throw new TendonError('gltf/invalid', `${where}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
