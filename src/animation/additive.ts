/**
 * Additive clips: a clip expressed as its difference to a reference pose.
 *
 * @packageDocumentation
 */
import { checkClipArg, checkPoseArg } from '../arguments.js';
import { TendonError } from '../errors.js';
import { PATH_ROTATION, PATH_SCALE, PATH_TRANSLATION } from '../kernel/keyframes.js';
import { conjugate, multiply } from '../kernel/quat.js';
import type { Pose } from '../pose/pose.js';
import { Clip, type RawTrack } from './clip.js';

/**
 * Builds the additive version of `clip` relative to `reference` (often the clip's first frame or
 * the rest pose): every key becomes `Δt = t − t_ref`, `Δq = q_ref⁻¹ · q`, `Δs = s / s_ref`, the
 * difference that the kernel's `additiveApply` puts back on top of any pose. Interpolating the deltas
 * gives exactly the delta of the interpolated clip (each map is linear in the key values, and a
 * fixed left rotation commutes with slerp), so nothing is lost by converting keys.
 *
 * Sample an additive clip into an identity pose (t = 0, q = identity, s = 1), not the rest pose:
 * {@link Mixer} does this for layers added with `additive: true`.
 *
 * @throws {@link TendonError} `clip/skeleton-mismatch` when the pose has another skeleton.
 */
export function makeAdditiveClip(clip: Clip, reference: Pose, name?: string): Clip {
  checkClipArg(clip, 'makeAdditiveClip');
  checkPoseArg(reference, `makeAdditiveClip("${clip.name}")`, undefined, 'the reference pose');
  if (reference.skeleton !== clip.skeleton) {
    throw new TendonError(
      'clip/skeleton-mismatch',
      `makeAdditiveClip("${clip.name}"): the reference pose has another skeleton`,
    );
  }
  const raw = clip.toRaw();
  const tracks: RawTrack[] = raw.tracks.map((track) => {
    const joint = track.joint as number;
    const values = Float64Array.from(track.values);
    const path =
      track.path === 'rotation' ? PATH_ROTATION : track.path === 'scale' ? PATH_SCALE : PATH_TRANSLATION;
    const cubic = track.interpolation === 'CUBICSPLINE';
    if (path === PATH_ROTATION) {
      // Tangents of cubic keys transform like values: left-multiplying is linear.
      const inverse = new Float64Array(4);
      conjugate(inverse, 0, reference.rotations, 4 * joint);
      for (let v = 0; v < values.length; v += 4) multiply(values, v, inverse, 0, values, v);
    } else {
      for (let v = 0; v < values.length; v += 3) {
        // Cubic keys hold [in tangent, value, out tangent]: tangents are differences, so only
        // the value entry (the middle third) shifts by the reference translation.
        const isValue = !cubic || (v / 3) % 3 === 1;
        for (let c = 0; c < 3; c++) {
          if (path === PATH_TRANSLATION) {
            if (isValue) values[v + c] -= reference.translations[3 * joint + c];
          } else {
            const s = reference.scales[3 * joint + c];
            values[v + c] = s === 0 ? (isValue ? 1 : 0) : values[v + c] / s;
          }
        }
      }
    }
    return { ...track, values };
  });
  return Clip.create(clip.skeleton, {
    name: name ?? `${clip.name} (additive)`,
    tracks,
    duration: clip.duration,
  });
}
