/**
 * The walls' motion from step to step: per part its geometry transform at t and its velocity
 * transforms at t − ε, t and t + ε, and whether the walls already stand at rest, so that a step
 * of a setup at rest does not place them again.
 */
import type { RigidTransform, WallMotion } from './motion.ts'
import { identityTransform, MOTION_DIFFERENCE_S, poseToTransform } from './motion.ts'
import type { ParticleArrays } from './particles.ts'
import type { PhaseRunner } from './threads.ts'
import { addProfile, PHASE } from './threads.ts'
import { placeWalls } from './wallPlacement.ts'

export class WallMover {
  readonly #partIds: readonly number[]
  readonly #motion: WallMotion | undefined
  readonly #transforms: RigidTransform[][]
  readonly #partMoving: Uint8Array
  #atRest = false
  /** Every part was at rest at the last placeWalls (a sort since then only lost accelerations). */
  #placedAtRest = false

  constructor(partIds: readonly number[], motion: WallMotion | undefined) {
    this.#partIds = partIds
    this.#motion = motion
    this.#transforms = partIds.map(() => [
      identityTransform(),
      identityTransform(),
      identityTransform(),
      identityTransform(),
    ])
    this.#partMoving = new Uint8Array(partIds.length)
  }

  /** A sort does not carry wall accelerations: the next move must write them again. */
  sorted(): void {
    this.#atRest = false
  }

  /**
   * Places wall particles at time t and sets their velocity and acceleration. Skipped while every
   * part is at rest and the walls already are.
   */
  move(timeS: number, arrays: ParticleArrays, count: number, runner: PhaseRunner): void {
    const motion = this.#motion
    const eps = MOTION_DIFFERENCE_S
    let anyMoving = false
    for (let p = 0; p < this.#partIds.length; p++) {
      const [geometry, before, now, after] = this.#transforms[p]!
      let moving = 0
      if (motion) {
        const id = this.#partIds[p]!
        const poses = [motion(id, timeS - eps), motion(id, timeS), motion(id, timeS + eps)]
        if (poses.some((pose) => pose !== null)) moving = 1
        poseToTransform(poses[1]!, geometry!)
        poseToTransform(poses[0]?.velocityPose ?? poses[0]!, before!)
        poseToTransform(poses[1]?.velocityPose ?? poses[1]!, now!)
        poseToTransform(poses[2]?.velocityPose ?? poses[2]!, after!)
      }
      this.#partMoving[p] = moving
      anyMoving ||= moving === 1
    }
    if (!anyMoving && this.#atRest) return
    if (!anyMoving && this.#placedAtRest) {
      // only a sort came between: the threads put the walls back at rest (same numbers)
      runner.run(PHASE.restWalls)
      this.#atRest = true
      return
    }
    this.#atRest = !anyMoving
    this.#placedAtRest = !anyMoving
    const started = performance.now()
    placeWalls(arrays, count, this.#transforms, this.#partMoving)
    addProfile('placeWalls', performance.now() - started)
  }
}
