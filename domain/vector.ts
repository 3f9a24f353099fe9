import * as v from 'valibot'

/** A 3-vector as [x, y, z]; every vector on the wire has exactly three components. */
export type Vec3 = [number, number, number]

export const Vec3Schema = v.tuple([v.number(), v.number(), v.number()])
/** A 3-vector whose components may still be empty while a person types (preliminary values). */
export const LooseVec3Schema = v.tuple([
  v.nullable(v.number()),
  v.nullable(v.number()),
  v.nullable(v.number()),
])
export type LooseVec3 = v.InferOutput<typeof LooseVec3Schema>

export function vectorLength(vec: readonly number[]): number {
  return Math.hypot(...vec)
}
