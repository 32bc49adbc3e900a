/**
 * What a glTF file's JSON claims, checked against what the file holds, before anything is
 * allocated for it: a 15 KB file must not make the reader allocate gigabytes.
 *
 * @packageDocumentation
 */
import { TendonError } from '../errors.js';

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_SIZE: Record<string, number> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
};

/** The most a file may make the reader allocate for accessors without data of their own, per byte of file. */
const BYTES_PER_FILE_BYTE = 16;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function natural(value: unknown, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Checks the buffers, buffer views and accessors of a glTF JSON against the bytes there are:
 * every buffer no larger than its data (`available(i)`, when known), every buffer view inside its
 * buffer, every accessor's elements inside its buffer view (stride included), a sparse accessor's
 * count no larger than its accessor's and its indices and values inside their views, and an
 * accessor with no data of its own (zeros) no larger than 16 bytes per byte of the file.
 *
 * @param fileBytes - the size of the whole file (JSON and binary), for that last bound.
 * @throws {@link TendonError} `gltf/invalid` naming the file and the object.
 */
export function checkGltfLimits(
  json: unknown,
  source: string,
  fileBytes: number,
  available: (buffer: number, uri: unknown) => number | undefined,
): void {
  if (!isObject(json)) return;
  function fail(message: string): never {
    throw new TendonError('gltf/invalid', `${source}: ${message}`);
  }
  const buffers = Array.isArray(json.buffers) ? json.buffers : [];
  const views = Array.isArray(json.bufferViews) ? json.bufferViews : [];
  const accessors = Array.isArray(json.accessors) ? json.accessors : [];
  const bufferBytes: number[] = buffers.map((buffer, i) => {
    if (!isObject(buffer)) return fail(`buffers[${i}] is not an object`);
    const length = natural(buffer.byteLength);
    if (length === undefined) return fail(`buffers[${i}].byteLength is ${String(buffer.byteLength)}`);
    const real = available(i, buffer.uri);
    if (real !== undefined && length > real) {
      fail(`buffers[${i}] declares ${length} bytes but its data has ${real} (truncated or lying)`);
    }
    return length;
  });
  const viewBytes: number[] = views.map((view, i) => {
    if (!isObject(view)) return fail(`bufferViews[${i}] is not an object`);
    const buffer = natural(view.buffer);
    const offset = natural(view.byteOffset, 0);
    const length = natural(view.byteLength);
    if (buffer === undefined || buffer >= bufferBytes.length) {
      return fail(
        `bufferViews[${i}].buffer is ${String(view.buffer)}, not one of the ${bufferBytes.length} buffers`,
      );
    }
    if (offset === undefined || length === undefined || offset + length > bufferBytes[buffer]) {
      return fail(
        `bufferViews[${i}] (bytes ${String(view.byteOffset ?? 0)} + ${String(view.byteLength)}) does not fit in buffers[${buffer}] (${bufferBytes[buffer]} bytes)`,
      );
    }
    return length;
  });
  const fits = (
    what: string,
    viewIndex: unknown,
    offset: unknown,
    count: number,
    element: number,
    stride: unknown,
  ): void => {
    const v = natural(viewIndex);
    if (v === undefined || v >= viewBytes.length)
      fail(`${what}.bufferView is ${String(viewIndex)}, not one of the ${viewBytes.length} buffer views`);
    const o = natural(offset, 0);
    const s = natural(stride, element);
    if (o === undefined || s === undefined)
      fail(`${what}: its byteOffset or byteStride is not a whole number`);
    const needed = o + (count > 0 ? s * (count - 1) + element : 0);
    if (needed > viewBytes[v as number]) {
      fail(
        `${what}: ${count} elements of ${element} bytes need ${needed} bytes, but bufferViews[${v}] has ${viewBytes[v as number]}`,
      );
    }
  };
  for (let i = 0; i < accessors.length; i++) {
    const accessor: unknown = accessors[i];
    const what = `accessors[${i}]`;
    if (!isObject(accessor)) fail(`${what} is not an object`);
    const component = COMPONENT_BYTES[accessor.componentType as number];
    const size = TYPE_SIZE[accessor.type as string];
    const count = natural(accessor.count);
    if (component === undefined || size === undefined)
      fail(
        `${what}: componentType ${String(accessor.componentType)} / type ${String(accessor.type)} is not glTF's`,
      );
    if (count === undefined || count < 1) fail(`${what}.count is ${String(accessor.count)}`);
    const element = component * size;
    if (accessor.bufferView !== undefined) {
      const view = views[natural(accessor.bufferView) ?? -1];
      fits(
        what,
        accessor.bufferView,
        accessor.byteOffset,
        count,
        element,
        isObject(view) ? view.byteStride : undefined,
      );
    } else if (count * element > BYTES_PER_FILE_BYTE * fileBytes + (1 << 20)) {
      fail(
        `${what}: ${count} elements with no data of their own would take ${count * element} bytes, out of proportion to a ${fileBytes}-byte file`,
      );
    }
    const sparse = accessor.sparse;
    if (isObject(sparse)) {
      const n = natural(sparse.count);
      if (n === undefined || n < 1 || n > count)
        fail(`${what}.sparse.count is ${String(sparse.count)}, not 1..${count}`);
      const indices = isObject(sparse.indices) ? sparse.indices : {};
      const values = isObject(sparse.values) ? sparse.values : {};
      const indexBytes = COMPONENT_BYTES[indices.componentType as number];
      if (indexBytes === undefined || (indexBytes === 1 && indices.componentType === 5120))
        fail(`${what}.sparse.indices.componentType is ${String(indices.componentType)}`);
      fits(
        `${what}.sparse.indices`,
        indices.bufferView,
        indices.byteOffset,
        n as number,
        indexBytes,
        undefined,
      );
      fits(`${what}.sparse.values`, values.bufferView, values.byteOffset, n as number, element, undefined);
    }
  }
}

/** Bytes a `data:` URI holds once decoded (base64), or undefined for another URI. */
export function dataUriBytes(uri: unknown): number | undefined {
  if (typeof uri !== 'string' || !uri.startsWith('data:')) return undefined;
  const comma = uri.indexOf(',');
  if (comma < 0) return 0;
  const payload = uri.length - comma - 1;
  if (!uri.slice(0, comma).endsWith(';base64')) return payload;
  let padding = 0;
  if (uri.endsWith('==')) padding = 2;
  else if (uri.endsWith('=')) padding = 1;
  return Math.floor((payload * 3) / 4) - padding;
}
