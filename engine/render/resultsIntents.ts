/**
 * The results scene's intents (the rest are the engine's or the setup scene's) and the hover
 * picks' point limit, shared by ResultsController and the engine.
 */
import type { RenderIntent } from '../protocol.ts'

/**
 * Hover picks test at most this many points (≈10 ms on one core): hover runs every 30 ms and must
 * not starve the frames; a click tests every drawn point.
 */
export const HOVER_PICK_POINT_LIMIT = 1_000_000

/** The results' intents (the rest are the engine's or the setup scene's). */
export type ResultsIntent = Extract<
  RenderIntent,
  {
    type:
      | 'set_outputs'
      | 'show_output'
      | 'set_dataset'
      | 'set_detail'
      | 'set_colour'
      | 'set_material_display'
      | 'set_part_view'
      | 'set_vectors'
      | 'play'
      | 'pause'
      | 'set_speed'
      | 'set_memory_readings'
      | 'pick'
      | 'set_overlays'
  }
>
