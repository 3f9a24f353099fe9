/**
 * The colour lookup table of the render worker. The pure scheme math lives in domain/ so the UI's
 * colour bar draws the same colours without importing the engine.
 */
export {
  COLOUR_SCHEME_STOPS,
  LUT_WIDTH,
  buildColourLut,
  lutIndexForValue,
  sampleScheme,
  schemeRow,
  type ColourStop,
} from '../../domain/colourSchemes.ts'
