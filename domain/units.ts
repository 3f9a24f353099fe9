/**
 * Quantities, units and number formatting (spec/results.md §3, spec/setup.md §9, spec/account.md
 * §9). Values travel and are stored in SI; only display converts (volume: m³ → liters).
 */
import { CREDIT_DECIMALS, NUMBER_SIGNIFICANT_DIGITS } from './constants.ts'

/** One quantity's display: its unit symbol and the factor from the SI value to that unit. */
export interface QuantityUnit {
  /** Label of the quantity in menus and axes. */
  label: string
  /** Unit symbol shown after values ('' for dimensionless). */
  unit: string
  /** SI unit the value is stored in. */
  siUnit: string
  /** display value = SI value × fromSi. */
  fromSi: number
}

/**
 * Quantities of the results (spec/results.md §3) and the setup (spec/setup.md §9). Volume is the one
 * quantity not shown in SI: particle volume in m³ × 1000 gives liters.
 */
export const QUANTITIES = {
  acceleration: { label: 'Acceleration', unit: 'm/s²', siUnit: 'm/s²', fromSi: 1 },
  density: { label: 'Density', unit: 'kg/m³', siUnit: 'kg/m³', fromSi: 1 },
  heat_flux: { label: 'Heat flux', unit: 'W/m²', siUnit: 'W/m²', fromSi: 1 },
  kinematic_viscosity: { label: 'Kinematic viscosity', unit: 'm²/s', siUnit: 'm²/s', fromSi: 1 },
  mass: { label: 'Mass', unit: 'kg', siUnit: 'kg', fromSi: 1 },
  mass_flux: { label: 'Mass flux', unit: 'kg/(m²s)', siUnit: 'kg/(m²s)', fromSi: 1 },
  normal_stress: { label: 'Normal stress', unit: 'N/m²', siUnit: 'N/m²', fromSi: 1 },
  shear_stress: { label: 'Shear stress', unit: 'N/m²', siUnit: 'N/m²', fromSi: 1 },
  combined_stress: { label: 'Combined stress', unit: 'N/m²', siUnit: 'N/m²', fromSi: 1 },
  position: { label: 'Position', unit: 'm', siUnit: 'm', fromSi: 1 },
  power_density: { label: 'Power density', unit: 'W/m²', siUnit: 'W/m²', fromSi: 1 },
  pressure: { label: 'Pressure', unit: 'Pa', siUnit: 'Pa', fromSi: 1 },
  shear_rate: { label: 'Shear rate', unit: '1/s', siUnit: '1/s', fromSi: 1 },
  temperature: { label: 'Temperature', unit: 'K', siUnit: 'K', fromSi: 1 },
  velocity: { label: 'Velocity', unit: 'm/s', siUnit: 'm/s', fromSi: 1 },
  volume: { label: 'Volume', unit: 'liters', siUnit: 'm³', fromSi: 1000 },
  volume_flux: { label: 'Volume flux', unit: 'm/s', siUnit: 'm/s', fromSi: 1 },
  dimensionless: { label: '', unit: '', siUnit: '', fromSi: 1 },
  // Setup-side quantities (spec/setup.md §9).
  length: { label: 'Length', unit: 'm', siUnit: 'm', fromSi: 1 },
  angle: { label: 'Angle', unit: 'deg', siUnit: 'deg', fromSi: 1 },
  time: { label: 'Time', unit: 's', siUnit: 's', fromSi: 1 },
  surface_tension: { label: 'Surface tension', unit: 'N/m', siUnit: 'N/m', fromSi: 1 },
  thermal_conductivity: {
    label: 'Thermal conductivity',
    unit: 'W/(mK)',
    siUnit: 'W/(mK)',
    fromSi: 1,
  },
  specific_heat: { label: 'Specific heat', unit: 'J/(kgK)', siUnit: 'J/(kgK)', fromSi: 1 },
} as const satisfies Record<string, QuantityUnit>

/** A quantity key of QUANTITIES. */
export type Quantity = keyof typeof QUANTITIES

/** Liters per cubic metre: the spec's "particle volume × 1000 gives liters". */
export const LITERS_PER_CUBIC_METRE = 1000

/** A particle volume in m³ as liters. */
export function volumeToLiters(volumeM3: number): number {
  return volumeM3 * LITERS_PER_CUBIC_METRE
}

/** An SI value in the display unit of its quantity. */
export function convertFromSi(quantity: Quantity, siValue: number): number {
  return siValue * QUANTITIES[quantity].fromSi
}

/** A display value back in SI. */
export function convertToSi(quantity: Quantity, displayValue: number): number {
  return displayValue / QUANTITIES[quantity].fromSi
}

/** Unit symbol of a quantity ('' for dimensionless). */
export function unitSymbol(quantity: Quantity): string {
  return QUANTITIES[quantity].unit
}

/** Length units accepted by STL upload, with metres per unit. */
export const LENGTH_UNITS = { m: 1, mm: 0.001, in: 0.0254 } as const
/** One STL upload length unit. */
export type LengthUnit = keyof typeof LENGTH_UNITS

/** A length given in `unit` in metres. */
export function lengthToMetres(value: number, unit: LengthUnit): number {
  return value * LENGTH_UNITS[unit]
}

// ── Number formatting ───────────────────────────────────────────────────────────────────────────

/** Below this magnitude (and above 0) numbers switch to scientific notation. */
export const SCIENTIFIC_BELOW = 1e-4
/** From this magnitude on numbers switch to scientific notation. */
export const SCIENTIFIC_FROM = 1e12

function formatNonFinite(value: number): string {
  if (Number.isNaN(value)) return ''
  return value > 0 ? '∞' : '-∞'
}

/**
 * A number with at most `significantDigits` (default 12) significant digits, without trailing
 * zeros; magnitudes below 1e-4 or from 1e12 on use scientific notation ('1.5e-7'). NaN formats as
 * '' (an empty field) and ±Infinity as '∞' / '-∞'.
 */
export function formatNumber(
  value: number,
  significantDigits: number = NUMBER_SIGNIFICANT_DIGITS,
): string {
  if (!Number.isFinite(value)) return formatNonFinite(value)
  if (value === 0) return '0'
  const rounded = Number(value.toPrecision(significantDigits))
  const magnitude = Math.abs(rounded)
  if (magnitude < SCIENTIFIC_BELOW || magnitude >= SCIENTIFIC_FROM) {
    const [mantissa = '', exponent = ''] = rounded.toExponential(significantDigits - 1).split('e')
    const trimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa
    return `${trimmed}e${exponent.replace('+', '')}`
  }
  // toPrecision rounding, then plain notation (String() never uses exponents in this range).
  return String(rounded)
}

/** A count as people write it: '10,726' (thousands separated, no decimals). */
export function formatCount(count: number): string {
  return Math.round(count).toLocaleString('en-US')
}

/** A number with at most `decimals` decimals and no trailing zeros (axes, rotations, intervals). */
export function formatDecimals(value: number, decimals: number): string {
  if (!Number.isFinite(value)) return formatNonFinite(value)
  const fixed = value.toFixed(decimals)
  const trimmed = fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed
  return trimmed === '-0' ? '0' : trimmed
}

/** A number with its quantity's unit: '1.5 m/s', or just the number for dimensionless ones. */
export function formatQuantity(quantity: Quantity, siValue: number): string {
  const text = formatNumber(convertFromSi(quantity, siValue))
  const unit = unitSymbol(quantity)
  return unit === '' || text === '' ? text : `${text} ${unit}`
}

/** Credits with exactly 2 decimals and thousands separators: '1,234.50'. NaN shows as ''. */
export function formatCredits(credits: number): string {
  if (!Number.isFinite(credits)) return formatNonFinite(credits)
  const text = credits.toLocaleString('en-US', {
    minimumFractionDigits: CREDIT_DECIMALS,
    maximumFractionDigits: CREDIT_DECIMALS,
  })
  return text === '-0.00' ? '0.00' : text
}

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

function pad2(value: number): string {
  return String(value).padStart(2, '0')
}

/** A date as dd.MM.yyyy in local time; '' for an invalid date. */
export function formatDate(value: Date | string | number): string {
  const date = toDate(value)
  if (!date) return ''
  return `${pad2(date.getDate())}.${pad2(date.getMonth() + 1)}.${date.getFullYear()}`
}

/** A date and time as dd.MM.yyyy, HH:mm in local time (tables); '' for an invalid date. */
export function formatDateTime(value: Date | string | number): string {
  const date = toDate(value)
  if (!date) return ''
  return `${formatDate(date)}, ${pad2(date.getHours())}:${pad2(date.getMinutes())}`
}

/** Byte size units, 1024 apart. */
export const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const

/**
 * A byte count for people: '512 B', '1.5 KB', '2 GB' (1024-based, one decimal, trailing '.0'
 * dropped). Negative or non-finite sizes show as ''.
 */
export function formatBytes(sizeBytes: number): string {
  if (!Number.isFinite(sizeBytes) || sizeBytes < 0) return ''
  let value = sizeBytes
  let unit = 0
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024
    unit++
  }
  const text = unit === 0 ? String(Math.round(value)) : formatDecimals(value, 1)
  return `${text} ${BYTE_UNITS[unit] ?? 'B'}`
}

/** A project or simulation size: 'N/A' when zero (nothing stored yet), else formatBytes. */
export function formatSize(sizeBytes: number): string {
  return sizeBytes === 0 ? 'N/A' : formatBytes(sizeBytes)
}

/**
 * Hours as hours and minutes: 12.5 → '12 h 30 min' (VM hours left). Minutes are rounded; a
 * negative balance keeps its sign; NaN shows as ''.
 */
export function formatHoursMinutes(hours: number): string {
  if (!Number.isFinite(hours)) return formatNonFinite(hours)
  const totalMinutes = Math.round(Math.abs(hours) * 60)
  const sign = hours < 0 && totalMinutes > 0 ? '-' : ''
  return `${sign}${Math.floor(totalMinutes / 60)} h ${totalMinutes % 60} min`
}
