/**
 * Small glTF files built in the test with @gltf-transform/core, for the cases the shared assets do
 * not cover (sparse accessors, normalized weights, nodes listed child-first, CUBICSPLINE, STEP).
 */
import { Accessor, Document, Logger, WebIO } from '@gltf-transform/core';

export interface SyntheticOptions {
  /** List the child node before its parent in the file. */
  readonly childFirst?: boolean;
  /** Store weights as normalized unsigned bytes or shorts instead of floats. */
  readonly weights?: 'float' | 'uint8' | 'uint16';
  /** Store the rotation animation output as a sparse accessor. */
  readonly sparse?: boolean;
  /** Interpolation of the animation. */
  readonly interpolation?: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  /** Leave out inverseBindMatrices. */
  readonly noInverseBind?: boolean;
  /** A second skin, bound to the tip joint only. */
  readonly secondSkin?: boolean;
  /** Break the file in one way, for the error tests. */
  readonly corrupt?: 'joint-index' | 'times' | 'rotation-type';
}

/**
 * A 3-joint arm (root → upper → lower) skinning a 4-vertex strip, plus an animation of the upper
 * joint's rotation and the lower joint's translation. Returns the .glb bytes.
 */
export async function buildSyntheticGlb(options: SyntheticOptions = {}): Promise<Uint8Array> {
  const doc = new Document();
  doc.createBuffer();
  const scene = doc.createScene('scene');
  // Creation order is file order: build the child first when asked.
  const make = (name: string) => doc.createNode(name);
  let root: ReturnType<typeof make>;
  let upper: ReturnType<typeof make>;
  let lower: ReturnType<typeof make>;
  if (options.childFirst) {
    lower = make('lower');
    upper = make('upper');
    root = make('root');
  } else {
    root = make('root');
    upper = make('upper');
    lower = make('lower');
  }
  root.setTranslation([0, 1, 0]).setRotation([0, 0, Math.SQRT1_2, Math.SQRT1_2]);
  upper.setTranslation([0, 0.5, 0]).setScale([1, 2, 1]);
  lower.setTranslation([0, 0.4, 0]);
  root.addChild(upper);
  upper.addChild(lower);
  scene.addChild(root);

  const positions = doc
    .createAccessor('positions')
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 0.1, 0.5, 0, -0.1, 0.9, 0.1, 0, 1.2, 0]));
  const joints = doc
    .createAccessor('joints')
    .setType('VEC4')
    .setArray(
      new Uint16Array([
        0,
        0,
        0,
        0,
        0,
        1,
        0,
        0,
        1,
        options.corrupt === 'joint-index' ? 7 : 2,
        0,
        0,
        2,
        0,
        0,
        0,
      ]),
    );
  // Sums are 1, 1.07 (as RobotExpressive) and 0.5: the importer must renormalize.
  const weightValues = [1, 0, 0, 0, 0.5, 0.57, 0, 0, 0.25, 0.25, 0, 0, 1, 0, 0, 0];
  const weights = doc.createAccessor('weights').setType('VEC4');
  if (options.weights === 'uint8') {
    weights
      .setArray(new Uint8Array(weightValues.map((w) => Math.round(Math.min(w, 1) * 255))))
      .setNormalized(true);
  } else if (options.weights === 'uint16') {
    weights
      .setArray(new Uint16Array(weightValues.map((w) => Math.round(Math.min(w, 1) * 65535))))
      .setNormalized(true);
  } else {
    weights.setArray(new Float32Array(weightValues));
  }
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', positions)
    .setAttribute('JOINTS_0', joints)
    .setAttribute('WEIGHTS_0', weights);
  const mesh = doc.createMesh('strip').addPrimitive(primitive);
  const skin = doc.createSkin('arm').addJoint(root).addJoint(upper).addJoint(lower);
  if (!options.noInverseBind) {
    // Any affine matrices do: the comparison with three.js does not need them to match the rest pose.
    skin.setInverseBindMatrices(
      doc
        .createAccessor('ibm')
        .setType('MAT4')
        .setArray(
          new Float32Array([
            0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, -1, 0, 0, 0.5, 0, 0, 0, 0, 0, 1, 0, -0.75, 0,
            0, 1, 0, -1, 0, 0, 0.5, 0, 0, 0, 0, 0, 1, 0, -1.15, 0, 0, 1,
          ]),
        ),
    );
  }
  const meshNode = doc.createNode('skinned').setMesh(mesh).setSkin(skin);
  scene.addChild(meshNode);
  if (options.secondSkin) {
    const skin2 = doc.createSkin('tip').addJoint(lower);
    const mesh2 = doc.createMesh('tip-mesh').addPrimitive(
      doc
        .createPrimitive()
        .setAttribute(
          'POSITION',
          doc
            .createAccessor()
            .setType('VEC3')
            .setArray(new Float32Array([0, 1.5, 0])),
        )
        .setAttribute(
          'JOINTS_0',
          doc
            .createAccessor()
            .setType('VEC4')
            .setArray(new Uint16Array([0, 0, 0, 0])),
        )
        .setAttribute(
          'WEIGHTS_0',
          doc
            .createAccessor()
            .setType('VEC4')
            .setArray(new Float32Array([1, 0, 0, 0])),
        ),
    );
    scene.addChild(doc.createNode('tip-node').setMesh(mesh2).setSkin(skin2));
  }

  const interpolation = options.interpolation ?? 'LINEAR';
  const times = new Float32Array(options.corrupt === 'times' ? [0.25, 1, 0.5, 2] : [0.25, 0.5, 1, 2]);
  const rotations = [
    [0, 0, 0, 1],
    [0, 0, 0.3826834, 0.9238795],
    [0.5, 0, 0, 0.8660254],
    [0, Math.SQRT1_2, 0, Math.SQRT1_2],
  ];
  const translations = [
    [0, 0.4, 0],
    [0.1, 0.4, 0],
    [0.1, 0.6, -0.2],
    [0, 0.4, 0],
  ];
  const expand = (values: number[][], size: number) =>
    interpolation === 'CUBICSPLINE'
      ? values.flatMap((v, k) =>
          [...v.map((x) => (k % 2 ? 0.3 : -0.2) * x), ...v, ...v.map((x) => 0.1 * x - 0.05)].slice(
            0,
            size * 3,
          ),
        )
      : values.flat();
  const rotationOutput =
    options.corrupt === 'rotation-type'
      ? doc
          .createAccessor('rot')
          .setType('VEC3')
          .setArray(new Float32Array(expand(translations, 3)))
      : doc
          .createAccessor('rot')
          .setType('VEC4')
          .setArray(new Float32Array(expand(rotations, 4)));
  if (options.sparse) rotationOutput.setSparse(true);
  const input = doc.createAccessor('times').setType(Accessor.Type.SCALAR).setArray(times);
  const rotationSampler = doc
    .createAnimationSampler()
    .setInput(input)
    .setOutput(rotationOutput)
    .setInterpolation(interpolation);
  const translationSampler = doc
    .createAnimationSampler()
    .setInput(input)
    .setOutput(
      doc
        .createAccessor('tr')
        .setType('VEC3')
        .setArray(new Float32Array(expand(translations, 3))),
    )
    .setInterpolation(interpolation);
  doc
    .createAnimation('move')
    .addSampler(rotationSampler)
    .addSampler(translationSampler)
    .addChannel(
      doc.createAnimationChannel().setTargetNode(upper).setTargetPath('rotation').setSampler(rotationSampler),
    )
    .addChannel(
      doc
        .createAnimationChannel()
        .setTargetNode(lower)
        .setTargetPath('translation')
        .setSampler(translationSampler),
    );
  return new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT)).writeBinary(doc);
}
