/**
 * How an object is drawn (spec/setup.md §3 "appearance"): shared by parts, refinements, sensors
 * and volume clips. Re-exported by parts.ts.
 */
import * as v from 'valibot'
import { COLOUR_PALETTE } from './constants.ts'
import { checkNumber, isHexColour, issue, type Issue } from './validation.ts'

const num = v.nullable(v.number())

const appearanceEntries = {
  /** '#rrggbb'. */
  color: v.string(),
  opacity: num,
  wireframe: v.boolean(),
  translucent: v.boolean(),
  visibility: v.boolean(),
  showPointcloud: v.boolean(),
}
/** How an object is drawn; shared by parts, refinements, sensors and volume clips. */
export const AppearanceSchema = v.object({
  id: v.optional(v.number()),
  createdAt: v.optional(v.string()),
  updatedAt: v.optional(v.string()),
  ...appearanceEntries,
})
/** How an object is drawn. */
export type Appearance = v.InferOutput<typeof AppearanceSchema>
/** Appearance in a create or update body: any of its fields. */
export const AppearanceUpdateSchema = v.partial(v.strictObject(appearanceEntries))
export type AppearanceUpdate = v.InferOutput<typeof AppearanceUpdateSchema>

/** The appearance of the `index`-th object: palette colours in turn, opaque and visible. */
export function defaultAppearance(index: number): Appearance {
  return {
    color: COLOUR_PALETTE[index % COLOUR_PALETTE.length] ?? '#2D69B2',
    opacity: 1,
    wireframe: false,
    translucent: false,
    visibility: true,
    showPointcloud: false,
  }
}

/** Opacity of a new wall: see-through enough to show the fluid it holds, solid enough to read. */
export const WALL_OPACITY = 0.35

/**
 * The appearance of a new part: walls (rigid) start translucent, since a tank or a channel hides the
 * fluid and the particles inside it otherwise; fluids and boundaries start opaque.
 */
export function defaultPartAppearance(index: number, componentType: string): Appearance {
  const appearance = defaultAppearance(index)
  return componentType === 'rigid'
    ? { ...appearance, translucent: true, opacity: WALL_OPACITY }
    : appearance
}

/** Opacity 0 … 1 and a '#rrggbb' colour. */
export function checkAppearance(
  appearance: Pick<Appearance, 'color' | 'opacity'>,
  prefix = 'appearance',
): Issue[] {
  const issues = checkNumber(`${prefix}.opacity`, 'Opacity', appearance.opacity, { min: 0, max: 1 })
  if (!isHexColour(appearance.color))
    issues.push(issue('error', `${prefix}.color`, 'Color must be a 7-character hex colour.'))
  return issues
}
