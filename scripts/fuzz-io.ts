/**
 * The importers' fuzzer: seeded mutations of the shared assets (.glb: bytes flipped, cut, inserted,
 * 32-bit fields set to hostile counts; .gltf: JSON numbers, fields, types, references and cycles;
 * .bvh: lines, words, counts and nesting), each imported in a worker thread with a time limit, and
 * classified: success, typed error (a TendonError naming the file), or a bug: another exception, a
 * timeout (twice, the second time in a fresh worker), memory held past the limit above the input's
 * own size, or a typed error whose message does not name the file (`unnamed`).
 *
 *   npm run fuzz:io [-- perFormat=10000 [seed=1]]
 *
 * prints a table per format (with the slowest input and the most memory held) and exits non-zero
 * when any input was a bug. test/io/fuzz.test.ts runs 200 per format in npm test.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What one input did. */
/** What one input did (`unnamed`: a typed error whose message does not name the file). */
export type Outcome = 'success' | 'typed error' | 'other exception' | 'timeout' | 'memory' | 'unnamed';

export interface FuzzReport {
  readonly format: string;
  readonly counts: Record<Outcome, number>;
  /** Up to 5 examples of each bad outcome: the mutation and the message. */
  readonly examples: { outcome: Outcome; mutation: string; message: string }[];
  /** The slowest input that finished, milliseconds. */
  readonly slowestMs: number;
  /** The most memory an import held above its input's size, bytes. */
  readonly mostHeldBytes: number;
}

const assets = fileURLToPath(new URL('../../shared/assets/', import.meta.url));

/** A deterministic generator (a 32-bit LCG): the same seed, the same mutations, everywhere. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)];

const HOSTILE_NUMBERS = [0, -1, 1e9, 2 ** 32, 2 ** 53, -(2 ** 31), 0.5, 1e308, -1e-308, 65535, 4294967295];
const HOSTILE_VALUES: unknown[] = [
  null,
  'x',
  true,
  [],
  {},
  [1],
  [1, 2],
  [Number.MAX_VALUE, 0, 0],
  ...HOSTILE_NUMBERS,
];

/** Mutates a JSON value in place at a random place: a number, a field, a type, a reference. */
function mutateJson(root: unknown, r: () => number): string {
  // Collect the containers and their keys, iteratively.
  const places: [Record<string, unknown> | unknown[], string | number][] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0 && places.length < 50_000) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      // Long arrays (data URIs aside) are sampled: a few places each.
      const n = value.length;
      for (let k = 0; k < Math.min(n, 8); k++) {
        const i = Math.floor(r() * n);
        places.push([value, i]);
        stack.push(value[i]);
      }
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        places.push([value as Record<string, unknown>, key]);
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  if (places.length === 0) return 'nothing to mutate';
  const [container, key] = pick(r, places);
  const holder = container as Record<string | number, unknown>;
  const old = holder[key];
  const kind = Math.floor(r() * 6);
  if (kind === 0 && typeof old === 'number') {
    holder[key] = pick(r, HOSTILE_NUMBERS);
  } else if (kind === 1 && !Array.isArray(container)) {
    delete holder[key];
    return `deleted ${String(key)}`;
  } else if (kind === 2 && typeof old === 'number') {
    holder[key] = old * pick(r, [1000, -1, 0.5, 2 ** 20]);
  } else if (kind === 3 && Array.isArray(old)) {
    // Cycles and depth: a node listing itself or its ancestors as children.
    old.push(pick(r, [0, 1, 2, old.length]));
  } else {
    holder[key] = pick(r, HOSTILE_VALUES);
  }
  return `${String(key)}: ${JSON.stringify(old)?.slice(0, 30)} → ${JSON.stringify(holder[key])?.slice(0, 30)}`;
}

/** Byte-level mutations: flips, truncation, spliced-in garbage. */
function mutateBytes(bytes: Uint8Array, r: () => number): [Uint8Array, string] {
  const kind = Math.floor(r() * 4);
  if (kind === 0) {
    const cut = Math.floor(r() * bytes.length);
    return [bytes.slice(0, cut), `truncated at ${cut}`];
  }
  const out = bytes.slice();
  if (kind === 1) {
    const n = 1 + Math.floor(r() * 8);
    for (let k = 0; k < n; k++) out[Math.floor(r() * out.length)] ^= 1 << Math.floor(r() * 8);
    return [out, `${n} bits flipped`];
  }
  if (kind === 2) {
    // A 32-bit field (a length, a count) set to a hostile value, at a 4-byte boundary near the start.
    const at = 4 * Math.floor(r() * Math.min(out.length / 4, 64));
    new DataView(out.buffer).setUint32(at, pick(r, [0, 0xffffffff, 0x7fffffff, 1e9, 20]), true);
    return [out, `u32 at ${at} changed`];
  }
  const at = Math.floor(r() * out.length);
  const garbage = Uint8Array.from({ length: 1 + Math.floor(r() * 64) }, () => Math.floor(r() * 256));
  const spliced = new Uint8Array(out.length + garbage.length);
  spliced.set(out.subarray(0, at));
  spliced.set(garbage, at);
  spliced.set(out.subarray(at), at + garbage.length);
  return [spliced, `${garbage.length} bytes inserted at ${at}`];
}

/** Text-level BVH mutations: numbers, keywords, lines, nesting. */
function mutateBvh(text: string, r: () => number): [string, string] {
  const lines = text.split('\n');
  const kind = Math.floor(r() * 6);
  const i = Math.floor(r() * lines.length);
  if (kind === 0) {
    lines.splice(i, 1 + Math.floor(r() * 3));
    return [lines.join('\n'), `lines from ${i} deleted`];
  }
  if (kind === 1) {
    const copies = Array.from({ length: 1 + Math.floor(r() * 50) }, () => lines[i]);
    lines.splice(i, 0, ...copies);
    return [lines.join('\n'), `line ${i} repeated ${copies.length}×`];
  }
  if (kind === 2) {
    const words = lines[i].split(/(\s+)/);
    const w = Math.floor(r() * words.length);
    words[w] = String(
      pick(r, ['nan', 'Infinity', '1e400', '-', '{', '}', 'End', 'JOINT', '999999999', 'CHANNELS', '']),
    );
    lines[i] = words.join('');
    return [lines.join('\n'), `line ${i}: a word replaced`];
  }
  if (kind === 3) {
    return [text.slice(0, Math.floor(r() * text.length)), 'truncated'];
  }
  if (kind === 4) {
    lines[i] = lines[i]
      .replace(/Frames:\s*\d+/, `Frames: ${pick(r, [0, 1e9, -1, 2 ** 31])}`)
      .replace(/CHANNELS \d/, `CHANNELS ${pick(r, [0, 7, 99])}`);
    return [lines.join('\n'), `line ${i}: a count changed`];
  }
  // Depth: a chain of joints nested far deeper than any skeleton.
  const deep = 2000;
  const open = Array.from(
    { length: deep },
    (_, k) => `JOINT j${k}\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n`,
  ).join('');
  const hierarchy = text.indexOf('{');
  return [
    `${text.slice(0, hierarchy + 1)}\n${open}${'}\n'.repeat(deep)}${text.slice(hierarchy + 1)}`,
    `${deep} nested joints`,
  ];
}

interface Input {
  readonly format: 'glb' | 'gltf' | 'bvh';
  readonly mutation: string;
  readonly bytes: Uint8Array;
}

/** The inputs of one format, made from the shared assets of that kind. */
export function makeInputs(format: Input['format'], count: number, seed: number): Input[] {
  const r = random(seed * 7919 + format.length);
  const sources =
    format === 'glb'
      ? ['RiggedSimple.glb', 'RiggedFigure.glb', 'Fox.glb'].map((f) => readFileSync(`${assets}gltf/${f}`))
      : format === 'gltf'
        ? [readFileSync(`${assets}gltf/SimpleSkin.gltf`)]
        : ['cmu_run_jog_daz_filtered.bvh'].map((f) => readFileSync(`${assets}bvh/${f}`));
  const inputs: Input[] = [];
  for (let k = 0; k < count; k++) {
    const base = new Uint8Array(pick(r, sources));
    if (format === 'gltf') {
      const json = JSON.parse(new TextDecoder().decode(base));
      const steps = 1 + Math.floor(r() * 3);
      const mutations: string[] = [];
      for (let s = 0; s < steps; s++) mutations.push(mutateJson(json, r));
      inputs.push({
        format,
        mutation: mutations.join('; '),
        bytes: new TextEncoder().encode(JSON.stringify(json)),
      });
    } else if (format === 'glb') {
      const [bytes, mutation] = mutateBytes(base, r);
      inputs.push({ format, mutation, bytes });
    } else {
      // BVH: cut to its first 200 frames, so that an input is quick to read.
      const text = new TextDecoder().decode(base);
      const motion = text.indexOf('MOTION');
      const head = text.slice(0, motion);
      const frames = text.slice(motion).split('\n').slice(3, 203);
      const short = `${head}MOTION\nFrames: ${frames.length}\nFrame Time: 0.0333333\n${frames.join('\n')}\n`;
      const [mutated, mutation] = mutateBvh(short, r);
      inputs.push({ format, mutation, bytes: new TextEncoder().encode(mutated) });
    }
  }
  return inputs;
}

interface Answer {
  readonly outcome: Outcome | 'ready';
  readonly message: string;
  readonly bytesHeld: number;
}

/**
 * Runs `inputs` in a worker, each with `timeoutMs` (counted from when the input is posted; the
 * worker's own start-up is waited for first). A worker that times out or runs out of memory is
 * replaced. A typed error whose message does not name the input's source counts as `unnamed`; an
 * import that holds more than `memoryMb` above the input's own size counts as `memory`.
 */
export async function runInputs(
  inputs: readonly Input[],
  timeoutMs = 1000,
  memoryMb = 64,
): Promise<FuzzReport> {
  const counts: Record<Outcome, number> = {
    success: 0,
    'typed error': 0,
    'other exception': 0,
    timeout: 0,
    memory: 0,
    unnamed: 0,
  };
  const examples: FuzzReport['examples'] = [];
  let slowest = 0;
  let mostHeld = 0;
  const workerFile = fileURLToPath(new URL('./fuzz-io-worker.ts', import.meta.url));
  let worker: Worker | null = null;
  const ask = (w: Worker, send: (() => void) | null, ms: number) =>
    new Promise<Answer>((resolve) => {
      const timer = setTimeout(
        () => finish({ outcome: 'timeout', message: `over ${ms} ms`, bytesHeld: 0 }),
        ms,
      );
      const onMessage = (m: Answer) => finish(m);
      const onError = (error: Error & { code?: string }) =>
        finish({
          outcome: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'other exception',
          message: error.message,
          bytesHeld: 0,
        });
      function finish(value: Answer) {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        resolve(value);
      }
      w.on('message', onMessage);
      w.on('error', onError);
      send?.();
    });
  const startWorker = async (): Promise<Worker> => {
    // The worker registers tsx's loader itself, then imports the TypeScript worker module (a .ts
    // entry given to Worker directly is loaded before any --import hook applies). Its old
    // generation is capped well above the limit measured below: a runaway allocation ends the
    // worker (counted as memory) instead of the machine.
    const url = JSON.stringify(pathToFileURL(workerFile).href);
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${url}); })`;
    const started = new Worker(boot, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: 4 * memoryMb + 64 },
    });
    const ready = await ask(started, null, 60_000);
    if (ready.outcome !== 'ready') throw new Error(`the fuzz worker did not start: ${ready.message}`);
    return started;
  };
  for (let k = 0; k < inputs.length; k++) {
    const input = inputs[k];
    const source = `fuzz-${k}.${input.format}`;
    const send = (w: Worker) => () => w.postMessage({ format: input.format, bytes: input.bytes, source });
    worker ??= await startWorker();
    let start = performance.now();
    let result = await ask(worker, send(worker), timeoutMs);
    if (result.outcome === 'timeout') {
      // Once more in a fresh worker: on a shared machine a pause of the process can pass the
      // limit once; an input that really hangs passes it again.
      await worker.terminate();
      worker = await startWorker();
      start = performance.now();
      result = await ask(worker, send(worker), timeoutMs);
    }
    const elapsed = performance.now() - start;
    if (result.outcome !== 'timeout') slowest = Math.max(slowest, elapsed);
    mostHeld = Math.max(mostHeld, result.bytesHeld - input.bytes.byteLength);
    if (result.outcome === 'typed error' && !result.message.includes(source)) {
      result = { ...result, outcome: 'unnamed' };
    } else if (
      (result.outcome === 'success' || result.outcome === 'typed error') &&
      result.bytesHeld > memoryMb * 2 ** 20 + input.bytes.byteLength
    ) {
      result = {
        ...result,
        outcome: 'memory',
        message: `held ${(result.bytesHeld / 2 ** 20).toFixed(1)} MB`,
      };
    }
    const outcome = result.outcome as Outcome;
    counts[outcome]++;
    if (outcome !== 'success' && outcome !== 'typed error') {
      if (examples.filter((e) => e.outcome === outcome).length < 5) {
        examples.push({ outcome, mutation: input.mutation, message: result.message.slice(0, 200) });
      }
      if (outcome === 'timeout' || (outcome === 'memory' && result.bytesHeld === 0)) {
        await worker?.terminate();
        worker = null;
      }
    }
  }
  await worker?.terminate();
  return { format: inputs[0]?.format ?? '', counts, examples, slowestMs: slowest, mostHeldBytes: mostHeld };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const perFormat = Number(process.argv[2] ?? 10_000);
  const seed = Number(process.argv[3] ?? 1);
  let bad = 0;
  console.log(`fuzzing the importers: ${perFormat} mutated inputs per format, seed ${seed}`);
  console.log("(each in a worker: 1 s time limit, 64 MB above the input's size)");
  console.log('format  success  typed error  other exception  timeout  memory  unnamed  slowest  most held');
  for (const format of ['glb', 'gltf', 'bvh'] as const) {
    const report = await runInputs(makeInputs(format, perFormat, seed));
    const c = report.counts;
    console.log(
      `${format.padEnd(6)}  ${String(c.success).padStart(7)}  ${String(c['typed error']).padStart(11)}  ${String(c['other exception']).padStart(15)}  ${String(c.timeout).padStart(7)}  ${String(c.memory).padStart(6)}  ${String(c.unnamed).padStart(7)}  ${report.slowestMs.toFixed(0).padStart(4)} ms  ${(report.mostHeldBytes / 2 ** 20).toFixed(1).padStart(6)} MB`,
    );
    for (const e of report.examples) console.log(`  ${e.outcome}: ${e.mutation} → ${e.message}`);
    bad += c['other exception'] + c.timeout + c.memory + c.unnamed;
  }
  process.exit(bad > 0 ? 1 : 0);
}
