/**
 * Movements of parts (spec/setup.md §3 "Movement", §4 movement form, §5 "Movement", §8 keyframe
 * warning). The schemas and rules live in movementRules.ts, the keyframes in movementKeyframes.ts;
 * this module gathers both.
 *
 * Physics: a movement is active from `start` to `end` (null: the simulation end time). Its
 * displacement after τ seconds of activity is s = vel·τ + acc·τ²/2 (m along the normalised
 * direction, or rad about the normalised axis through `center`); after `end` it holds. A follower is
 * defined in the initial frame and carried by its leaders: its motion is applied first, then its
 * leaders'.
 */
export * from './movementRules.ts'
export * from './movementKeyframes.ts'
