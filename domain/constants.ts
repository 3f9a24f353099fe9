/**
 * Business constants of spec/results.md §9, spec/account.md §9 and the non-rule constants of
 * spec/setup.md §9 (colour schemes, chart colours, detail levels, render tuning). Setup validation
 * bounds (output count, slice angle, air drag cells …) live with the setup rules; name and page
 * limits already in limits.ts are not repeated here.
 *
 * Every value carries its unit in its name (…Ms, …S, …Px) or in its TSDoc.
 */
import type { SimulationState } from './simulationState.ts'

// ── Timing: autosave, polling, toasts ──────────────────────────────────────────────────────────

/** The viewport state (camera, colour map, clipping …) is saved at most this often. */
export const VIEWPORT_STATE_AUTOSAVE_MS = 5000

/** Poll intervals of spec/results.md §7 and §9 and spec/account.md §7, in milliseconds. */
export const POLL_INTERVALS_MS = {
  /** GET /simulations/{id} while creating, launching or stopping. */
  simulationBusy: 5000,
  /** GET /simulations/{id} in every other state. */
  simulation: 60_000,
  assemblies: 1000,
  tessellations: 1000,
  discretization: 500,
  sensorRecomputation: 2000,
  userExport: 5000,
  virtualMachines: 10_000,
  graphs: 10_000,
  /** GET /simulations/{id}/outputs while some output is not ready. */
  outputs: 60_000,
  /** GET /simulations/{id}/outputs once every output is ready. */
  outputsAllReady: 600_000,
  /** GET /version: a new web version opens the release modal. */
  releaseVersion: 600_000,
} as const

/** States in which the simulation is polled at the fast rate. */
export const FAST_POLL_SIMULATION_STATES: readonly SimulationState[] = [
  'creating',
  'launching',
  'stopping',
]

/** How often to poll a simulation: 5 s while creating, launching or stopping, else 60 s. */
export function simulationPollIntervalMs(state: SimulationState): number {
  return FAST_POLL_SIMULATION_STATES.includes(state)
    ? POLL_INTERVALS_MS.simulationBusy
    : POLL_INTERVALS_MS.simulation
}

/** How often to poll the output list: 60 s, or 600 s once all outputs are ready. */
export function outputsPollIntervalMs(allReady: boolean): number {
  return allReady ? POLL_INTERVALS_MS.outputsAllReady : POLL_INTERVALS_MS.outputs
}

/** Toast auto-close: 6 s by default; 10 s for simulation toasts and the release toast. */
export const TOAST_DURATION_MS = { default: 6000, simulation: 10_000, release: 10_000 } as const

/** The connection toast (connected / reconnecting / reconnected) hides after this. */
export const CONNECTION_TOAST_MS = 3000

/** A simulation launching for longer than this shows 'Simulation delayed due to resource limits.' */
export const LAUNCH_DELAY_MESSAGE_AFTER_MS = 15 * 60_000

/** The info banner stays hidden this long after dismissal (1 day). */
export const INFO_BANNER_HIDDEN_MS = 24 * 3600_000

/** /logout redirects to / after this (spec/account.md §2). */
export const LOGOUT_CONFIRM_REDIRECT_MS = 2000
/** Delay before the logout redirect itself. */
export const LOGOUT_REDIRECT_DELAY_MS = 1000

/** Search input debounce (team page 50 ms, billing 200 ms). */
export const SEARCH_DEBOUNCE_MS = { team: 50, billing: 200 } as const

// ── Live connection ─────────────────────────────────────────────────────────────────────────────

/** A page hidden for this long closes the live connection; it reconnects on return. */
export const HIDDEN_PAGE_DISCONNECT_S = 300
/** HIDDEN_PAGE_DISCONNECT_S in milliseconds, for timers. */
export const HIDDEN_PAGE_DISCONNECT_MS = HIDDEN_PAGE_DISCONNECT_S * 1000

/** Reconnect attempts of the live connection before giving up. */
export const CONNECTION_RETRIES = 50

/** Exponential reconnect backoff: 1 s, 2 s, 4 s … capped at 30 s. */
export const BACKOFF = { initialMs: 1000, maxMs: 30_000 } as const

/** Heartbeat period: 10 s while a workload is connected, 0.5 s otherwise. */
export const HEARTBEAT_MS = { workloadConnected: 10_000, otherwise: 500 } as const

/** The remote VM window retries its connection this many times, this far apart. */
export const VM_CONNECTION_RETRY = { attempts: 3, intervalMs: 1000 } as const

// ── Rendering and data loading (the engine's budget, DESIGN.md "Limits") ──────────────────────────

/** Names of the output detail levels, coarsest first. */
export const DETAIL_LEVEL_NAMES = ['Low', 'Medium', 'High', 'All'] as const
/** One output detail level. */
export type DetailLevel = (typeof DETAIL_LEVEL_NAMES)[number]

/**
 * Fraction of the points drawn per detail level (Low 10 %, Medium 50 %, High 100 %); All (null)
 * lifts the particle and triangle limits as well.
 */
export const DETAIL_LEVELS: Readonly<Record<DetailLevel, number | null>> = {
  Low: 0.1,
  Medium: 0.5,
  High: 1,
  All: null,
}

/** Most particles drawn in one view (below detail level All). */
export const PARTICLE_LIMIT = 5_000_000
/** Most triangles drawn in one view (below detail level All). */
export const TRIANGLE_LIMIT = 10_000_000

/** While the camera moves, a view with at least INTERACTION_SUBSET_THRESHOLD points draws this many. */
export const INTERACTION_SUBSET_POINTS = 100_000
/** Visible point count from which the interaction subset is used. */
export const INTERACTION_SUBSET_THRESHOLD = 1_000_000

/** Points drawn while interacting: all of them below the threshold, else the fixed subset. */
export function interactionPointCount(visiblePoints: number): number {
  return visiblePoints >= INTERACTION_SUBSET_THRESHOLD ? INTERACTION_SUBSET_POINTS : visiblePoints
}

/** Output loads in flight at once (the data worker pool size). */
export const DATA_LOAD_CONCURRENCY = 12
/** Loading status snapshots are sent at most this often. */
export const DATA_LOAD_STATUS_THROTTLE_MS = 1000
/** Outputs no longer used are evicted on this period. */
export const UNUSED_OUTPUTS_CLEAR_MS = 10_000
/** Outputs requested per loading batch. */
export const DATA_LOAD_BATCH = 30

/** Default particle size on screen, in pixels. */
export const DEFAULT_POINT_SIZE_PX = 15
/** Picking radius for points, as a fraction of the view (normalized device units). */
export const POINT_PICK_THRESHOLD = 0.02
/** Camera field of view, degrees. */
export const FIELD_OF_VIEW_DEG = 45
/** Click and double-click are told apart by this wait. */
export const DOUBLE_CLICK_WINDOW_MS = 300
/** Hover picking runs at most this often. */
export const HOVER_THROTTLE_MS = 30
/** Part transform animation length, seconds. */
export const TRANSFORM_ANIMATION_S = 0.5
/** Camera keyframe animation length, seconds. */
export const CAMERA_KEYFRAME_ANIMATION_S = 0.7
/** Geometry tessellation of primitive shapes. */
export const PRIMITIVE_SEGMENTS = {
  sphere: 16,
  cylinderRadial: 100,
  cylinderHeight: 2,
  circle: 100,
} as const
/** Vector-field arrows: at most this many samples, this far apart on screen. */
export const VECTOR_FIELD_ARROWS = { maxSamples: 5000, spacingPx: 25 } as const

// ── Playback and timeline ───────────────────────────────────────────────────────────────────────

/**
 * Output playback defaults: 10 target outputs, speed 1, looping, 3 frames per second at speed 1,
 * speed bounded to 2^-10 … 2^11 (halved or doubled per step), 'fast' dataset while playing.
 */
export const PLAYBACK = {
  targetOutputs: 10,
  speed: 1,
  loop: true,
  framesPerSecond: 3,
  minSpeed: 2 ** -10,
  maxSpeed: 2048,
  reduction: 'fast',
} as const

/** Timeline progress updates are throttled to this. */
export const TIMELINE_PROGRESS_THROTTLE_MS = 120
/** Significant digits of timeline labels. */
export const TIMELINE_LABEL_PRECISION = 4

/** Scale bar: at most 300 px or 30 % of the viewport width; lengths are 1, 2, 5 or 10 × 10^k. */
export const SCALE_BAR = {
  maxWidthPx: 300,
  maxWidthFraction: 0.3,
  niceSteps: [1, 2, 5, 10],
} as const

// ── Colours ─────────────────────────────────────────────────────────────────────────────────────

/** Colour schemes of the colour map. */
export const COLOUR_SCHEMES = [
  'blueGreenYellow',
  'blueBrightness',
  'blueRedYellow',
  'diverging',
  'discrete',
  'rainbow',
  'binary',
] as const
/** One colour scheme of the colour map. */
export type ColourScheme = (typeof COLOUR_SCHEMES)[number]
/** The scheme a new colour map starts with. */
export const DEFAULT_COLOUR_SCHEME: ColourScheme = 'rainbow'

/** Tick marks of the colour map bar, as fractions of its length. */
export const COLOUR_MAP_TICKS = [0.25, 0.5, 0.75] as const

/** Default colours of chart datasets, used in turn. */
export const CHART_DEFAULT_COLOURS = [
  '#2D69B2',
  '#FFB10F',
  '#25C189',
  '#D64265',
  '#444444',
] as const

/**
 * The 12 fixed colours of parts, materials and sensors (the spec fixes the count, not the values:
 * these start with the chart colours and continue with distinct hues).
 */
export const COLOUR_PALETTE = [
  '#2D69B2',
  '#FFB10F',
  '#25C189',
  '#D64265',
  '#444444',
  '#8E44AD',
  '#17BECF',
  '#E67E22',
  '#7F8C8D',
  '#BCBD22',
  '#1F3A93',
  '#F06292',
] as const

// ── Layout ──────────────────────────────────────────────────────────────────────────────────────

/** Below this window width the postprocessor and chart windows use their small-screen layout. */
export const SMALL_SCREEN_WIDTH_PX = 1700

/** Dashboard grid: 12 columns, rows of 150 px, 16 px margins. */
export const DASHBOARD_GRID = { columns: 12, rowHeightPx: 150, marginPx: 16 } as const
/** Where a new tile goes (y 9999 puts it below every other tile). */
export const DEFAULT_TILE_LAYOUT = { x: 0, y: 9999, w: 6, h: 2 } as const

/** The material list collapses after this many items ('see N more/less'). */
export const MATERIAL_LIST_COLLAPSE_AFTER = 5
/** Truncation lengths, characters. */
export const TRUNCATE_CHARS = {
  name: 80,
  movementName: 30,
  accelerationFileName: 23,
  surfaceTensionFluidName: 9,
} as const

// ── Numbers ─────────────────────────────────────────────────────────────────────────────────────

/** Significant digits of displayed numbers (inputs, statistics table). */
export const NUMBER_SIGNIFICANT_DIGITS = 12
/** Decimals of rotations and output intervals. */
export const DISPLAY_DECIMALS = { rotation: 9, outputInterval: 8 } as const
/** Statistics chart and table: 6 ticks, axis decimals 8 (x) and 9 (y), table 12. */
export const STATISTICS_FORMAT = {
  tickCount: 6,
  xAxisDecimals: 8,
  yAxisDecimals: 9,
  tableDecimals: 12,
} as const

/** Export step size bounds (an integer, default 1). */
export const EXPORT_STEP = { min: 1, max: 100, default: 1 } as const

/** Data tables: rows 3…100 by default, preview pages of 5; open-boundary tables ≥ 2 rows, preview 10. */
export const DATATABLE = {
  minRows: 3,
  maxRows: 100,
  previewPageSize: 5,
  openBoundaryMinRows: 2,
  openBoundaryPreviewRows: 10,
} as const

// ── Account, budget, credits ─────────────────────────────────────────────────────────────────────

/** Page sizes of the transactions table (default 10). */
export const BUDGET_PAGE_SIZES = [10, 20, 30, 40] as const
/** Default page size of the transactions table. */
export const DEFAULT_BUDGET_PAGE_SIZE = 10
/** File name of the transactions CSV download. */
export const CREDIT_TRANSACTIONS_CSV_NAME = 'credit_transactions.csv'

/** Credit period options in days; -1 means the billing year. */
export const CREDIT_PERIODS = [
  { days: -1, label: 'Billing Year' },
  { days: 365, label: 'Last Year' },
  { days: 91, label: 'Last 3 Months' },
  { days: 30, label: 'Last Month' },
  { days: 7, label: 'Last 1 week' },
] as const
/** The period the budget page opens with. */
export const DEFAULT_CREDIT_PERIOD_DAYS = 365

/** Estimated budget hours = credits ÷ 120. */
export const ESTIMATED_BUDGET_HOURS_DIVISOR = 120

/** Hours the remaining credits buy; NaN and negative credits count as none. */
export function estimatedBudgetHours(credits: number): number {
  if (!Number.isFinite(credits) || credits <= 0) return 0
  return credits / ESTIMATED_BUDGET_HOURS_DIVISOR
}

/** Credits and billing figures are shown with this many decimals. */
export const CREDIT_DECIMALS = 2

/** A VM's auto shutdown fires this long after it is enabled (24 h). */
export const AUTO_SHUTDOWN_AFTER_MS = 24 * 3600_000
/** A support access grant lasts 24 h; the team badge marks requests of the last 24 h. */
export const ACCESS_GRANT_DURATION_MS = 24 * 3600_000
/** A test token placed in local storage is valid this long (and never in production). */
export const TEST_TOKEN_TTL_S = 3600

/**
 * Share of the organization storage from which the storage bar turns to warning (the spec does not
 * give the value; it turns to error at 100 %).
 */
export const STORAGE_WARNING_FRACTION = 0.9

// ── Unit conversions of logs and limits ───────────────────────────────────────────────────────────

/**
 * Log values are kept in milliseconds; graphs divide by these: time → s (1000), runtime → min
 * (60000).
 */
export const TIME_UNIT_CONVERSIONS = { time: 1000, runtime: 60_000 } as const

/**
 * Limit-type conversions (condition thresholds): stored threshold = entered limit × factor.
 * credits and particle count as entered; physical time entered in s, stored in ms (1000);
 * runtime entered in days, stored in minutes (1440).
 */
export const LIMIT_CONVERSIONS = { credits: 1, particle_nbr: 1, time: 1000, runtime: 1440 } as const

/** Log levels of the run history. */
export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'SUCCESS'] as const
/** One run-history log level. */
export type LogLevel = (typeof LOG_LEVELS)[number]
/** Message types of the notification area. */
export const MESSAGE_TYPES = ['debug', 'info', 'warning', 'error', 'success', 'loading'] as const
/** One notification message type. */
export type MessageType = (typeof MESSAGE_TYPES)[number]
