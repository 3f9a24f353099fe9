import type { ColourScheme } from '../../../../../domain/constants.ts'
import { COLOUR_SCHEME_STOPS } from '../../../../../domain/colourSchemes.ts'

/** 'blueGreenYellow' → 'Blue green yellow'. */
export function schemeLabel(scheme: ColourScheme): string {
  const words = scheme.replace(/([A-Z])/g, ' $1').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

function percent(at: number): string {
  return `${Number((at * 100).toFixed(3))}%`
}

/**
 * A CSS gradient of a scheme from the GPU lookup table's own stops: smooth schemes interpolate
 * linearly between them (as the table does), stepped schemes hold each colour over its band.
 */
export function schemeGradient(scheme: ColourScheme, direction = '90deg'): string {
  const { stops, stepped } = COLOUR_SCHEME_STOPS[scheme]
  const rgb = (values: readonly number[]) => `rgb(${values.join(', ')})`
  const parts = stepped
    ? stops.map((stop, index) => {
        const end = stops[index + 1]?.at ?? 1
        return `${rgb(stop.rgb)} ${percent(stop.at)} ${percent(end)}`
      })
    : stops.map((stop) => `${rgb(stop.rgb)} ${percent(stop.at)}`)
  return `linear-gradient(${direction}, ${parts.join(', ')})`
}
