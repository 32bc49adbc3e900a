/**
 * BarHang.update allocates nothing once warm: V8's heap sampler, keeping what the young-generation
 * collector frees, attributes no byte to src/placement/bar-hang.ts over 4,000 frames of swinging,
 * pushing and moving hand over hand (the frame loop of the placement bench's kind, after 16,000
 * frames of warm-up). A double passed to a call that is not inlined, or made by arithmetic in code
 * that runs unoptimized (a push now and then), is a new heap number: each of those was one here.
 */
import { Session } from 'node:inspector/promises';
import { expect, it } from 'vitest';
import type { Clip } from '../../src/animation/clip.js';
import { SamplerContext, sampleClip } from '../../src/animation/sampler.js';
import { BarHang } from '../../src/placement/bar-hang.js';
import { createModelBuffer, forwardKinematics } from '../../src/pose/forward-kinematics.js';
import { Pose } from '../../src/pose/pose.js';
import { robot } from './characters.js';

interface ProfileNode {
  callFrame: { url: string; functionName: string };
  selfSize: number;
  children: ProfileNode[];
}

it('BarHang.update: no byte allocated per frame once warm (heap sampler)', async () => {
  const character = await robot();
  const { skeleton, rig } = character;
  const idle = character.clips.get('Idle') as Clip;
  const context = new SamplerContext(idle);
  const pose = new Pose(skeleton);
  const model = createModelBuffer(skeleton);
  const hang = new BarHang(skeleton, rig, { from: [-2, 2.4, 0], to: [2, 2.4, 0], scale: character.scale });
  const frame = (i: number) => {
    sampleClip(idle, context, (i % 120) / 60, pose);
    forwardKinematics(pose, model);
    if (i % 100 === 0) hang.pushBody(0, 0, 5);
    hang.update(pose, model, 1 / 60, i % 1000 < 500 ? 0.01 : i % 1000 < 600 ? 0 : -0.01);
  };
  let i = 0;
  for (; i < 16000; i++) frame(i);
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  for (let k = 0; k < 4000; k++, i++) frame(i);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
  session.disconnect();
  const sites: string[] = [];
  let bytes = 0;
  const walk = (node: ProfileNode) => {
    if (node.selfSize > 0 && node.callFrame.url.endsWith('placement/bar-hang.ts')) {
      bytes += node.selfSize;
      sites.push(`${node.callFrame.functionName} ${node.selfSize} B`);
    }
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  expect(sites).toEqual([]);
  expect(bytes).toBe(0);
});
