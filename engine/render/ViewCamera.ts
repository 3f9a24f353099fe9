/**
 * The camera both scenes share, with its keyframe animation (view orientations, a double-click
 * centring, framing one setup object): the camera moves to its destination over
 * CAMERA_ANIMATION_MS, eased, on the great circle about the target. Any direct move stops it.
 */
import { CAMERA_KEYFRAME_ANIMATION_S } from '../../domain/constants.ts'
import { defaultViewportState, type CameraMode, type CameraState } from '../../domain/results.ts'
import { easeInOut, interpolateCamera, switchCameraMode } from './camera.ts'

/** Duration of a camera keyframe animation (spec/results.md §9: 0.7 s). */
export const CAMERA_ANIMATION_MS = CAMERA_KEYFRAME_ANIMATION_S * 1000

/** The shared camera and its animation. */
export class ViewCamera {
  #camera: CameraState = defaultViewportState().camera
  #animation: { from: CameraState; to: CameraState; startMs: number } | null = null

  current(): CameraState {
    return this.#camera
  }

  /** Where an animation under way is heading (null: none). */
  destination(): CameraState | null {
    return this.#animation?.to ?? null
  }

  isAnimating(): boolean {
    return this.#animation !== null
  }

  /** Puts the camera there at once; an animation under way stops where it is. */
  set(camera: CameraState): void {
    this.#animation = null
    this.#camera = camera
  }

  /** Moves from where the camera is now (mid-animation too) to `to` over the animation time. */
  animateTo(to: CameraState, nowMs: number): void {
    this.#animation = { from: this.#camera, to, startMs: nowMs }
  }

  /** Switches projection; an animation under way keeps going, in the new mode. */
  switchMode(mode: CameraMode): void {
    const animation = this.#animation
    this.set(switchCameraMode(this.#camera, mode))
    if (animation !== null)
      this.#animation = {
        ...animation,
        from: switchCameraMode(animation.from, mode),
        to: switchCameraMode(animation.to, mode),
      }
  }

  /** Advances the animation to `nowMs`; true when the camera moved. It ends exactly at its destination. */
  tick(nowMs: number): boolean {
    const animation = this.#animation
    if (animation === null) return false
    const t = (nowMs - animation.startMs) / CAMERA_ANIMATION_MS
    this.#camera = interpolateCamera(animation.from, animation.to, easeInOut(t))
    if (t >= 1) {
      this.#camera = animation.to
      this.#animation = null
    }
    return true
  }
}
