/**
 * The colour schemes of the colour map as numbers: control stops per scheme, sampling, and the
 * lookup table the GPU draws with (one row of LUT_WIDTH RGBA texels per scheme, uploaded once as a
 * texture). The UI's colour bar samples the same stops, so it shows exactly the GPU's colours.
 */
import { COLOUR_SCHEMES, type ColourScheme } from './constants.ts'

/** Texels per scheme row: 256 steps, finer than any colour bar on screen. */
export const LUT_WIDTH = 256

/** A colour stop: position 0 … 1 along the scheme and its RGB (0 … 255). */
export interface ColourStop {
  at: number
  rgb: readonly [number, number, number]
}

/**
 * Control stops per scheme. Smooth schemes interpolate linearly between stops; stepped schemes
 * (discrete, binary) hold each colour over an equal band.
 */
export const COLOUR_SCHEME_STOPS: Readonly<
  Record<ColourScheme, { stops: readonly ColourStop[]; stepped: boolean }>
> = {
  blueGreenYellow: {
    stepped: false,
    stops: [
      { at: 0, rgb: [31, 58, 147] },
      { at: 0.5, rgb: [37, 193, 137] },
      { at: 1, rgb: [253, 231, 37] },
    ],
  },
  blueBrightness: {
    stepped: false,
    stops: [
      { at: 0, rgb: [8, 20, 64] },
      { at: 0.5, rgb: [45, 105, 178] },
      { at: 1, rgb: [224, 240, 255] },
    ],
  },
  blueRedYellow: {
    stepped: false,
    stops: [
      { at: 0, rgb: [0, 0, 255] },
      { at: 0.5, rgb: [255, 0, 0] },
      { at: 1, rgb: [255, 255, 0] },
    ],
  },
  diverging: {
    stepped: false,
    stops: [
      { at: 0, rgb: [59, 76, 192] },
      { at: 0.5, rgb: [221, 221, 221] },
      { at: 1, rgb: [180, 4, 38] },
    ],
  },
  discrete: {
    stepped: true,
    stops: [
      { at: 0, rgb: [0, 0, 255] },
      { at: 1 / 8, rgb: [0, 128, 255] },
      { at: 2 / 8, rgb: [0, 255, 255] },
      { at: 3 / 8, rgb: [0, 255, 128] },
      { at: 4 / 8, rgb: [128, 255, 0] },
      { at: 5 / 8, rgb: [255, 255, 0] },
      { at: 6 / 8, rgb: [255, 128, 0] },
      { at: 7 / 8, rgb: [255, 0, 0] },
    ],
  },
  rainbow: {
    stepped: false,
    stops: [
      { at: 0, rgb: [0, 0, 255] },
      { at: 0.25, rgb: [0, 255, 255] },
      { at: 0.5, rgb: [0, 255, 0] },
      { at: 0.75, rgb: [255, 255, 0] },
      { at: 1, rgb: [255, 0, 0] },
    ],
  },
  binary: {
    stepped: true,
    stops: [
      { at: 0, rgb: [45, 105, 178] },
      { at: 0.5, rgb: [214, 66, 101] },
    ],
  },
}

/** The texture row of a scheme (its index in COLOUR_SCHEMES). */
export function schemeRow(scheme: ColourScheme): number {
  return COLOUR_SCHEMES.indexOf(scheme)
}

/** The RGB of a scheme at position t (clamped to 0 … 1). */
export function sampleScheme(scheme: ColourScheme, t: number): [number, number, number] {
  const { stops, stepped } = COLOUR_SCHEME_STOPS[scheme]
  const at = Math.min(1, Math.max(0, Number.isNaN(t) ? 0 : t))
  let lower = stops[0] as ColourStop
  let upper = lower
  for (const stop of stops) {
    if (stop.at <= at) lower = stop
    if (stop.at >= at) {
      upper = stop
      break
    }
    upper = stop
  }
  if (stepped || upper === lower || upper.at <= lower.at) return [...lower.rgb]
  const f = (at - lower.at) / (upper.at - lower.at)
  return [0, 1, 2].map((c) =>
    Math.round(
      (lower.rgb[c] as number) + f * ((upper.rgb[c] as number) - (lower.rgb[c] as number)),
    ),
  ) as [number, number, number]
}

/**
 * The whole table, RGBA, LUT_WIDTH × COLOUR_SCHEMES.length texels, row r = scheme r. Texel i sits
 * at t = i / (LUT_WIDTH - 1), so both ends of the range hit the scheme's end colours exactly.
 */
export function buildColourLut(): Uint8Array {
  const lut = new Uint8Array(LUT_WIDTH * COLOUR_SCHEMES.length * 4)
  COLOUR_SCHEMES.forEach((scheme, row) => {
    for (let i = 0; i < LUT_WIDTH; i++) {
      const [r, g, b] = sampleScheme(scheme, i / (LUT_WIDTH - 1))
      const offset = (row * LUT_WIDTH + i) * 4
      lut[offset] = r
      lut[offset + 1] = g
      lut[offset + 2] = b
      lut[offset + 3] = 255
    }
  })
  return lut
}

/** The texel of a value under a range: where the shader reads (NaN and an empty range give null). */
export function lutIndexForValue(value: number, min: number, max: number): number | null {
  if (!Number.isFinite(value) && !(value === Infinity || value === -Infinity)) return null
  if (!(max > min)) return null
  const t = Math.min(1, Math.max(0, (value - min) / (max - min)))
  return Math.round(t * (LUT_WIDTH - 1))
}
