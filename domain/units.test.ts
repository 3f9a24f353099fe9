import { describe, expect, it } from 'vitest'
import {
  QUANTITIES,
  convertFromSi,
  convertToSi,
  formatBytes,
  formatCount,
  formatCredits,
  formatDate,
  formatDateTime,
  formatDecimals,
  formatHoursMinutes,
  formatNumber,
  formatQuantity,
  formatSize,
  lengthToMetres,
  unitSymbol,
  volumeToLiters,
} from './units.ts'

describe('quantities', () => {
  it('shows each result quantity in the unit of the spec', () => {
    expect(unitSymbol('acceleration')).toBe('m/s²')
    expect(unitSymbol('density')).toBe('kg/m³')
    expect(unitSymbol('heat_flux')).toBe('W/m²')
    expect(unitSymbol('kinematic_viscosity')).toBe('m²/s')
    expect(unitSymbol('mass_flux')).toBe('kg/(m²s)')
    expect(unitSymbol('combined_stress')).toBe('N/m²')
    expect(unitSymbol('pressure')).toBe('Pa')
    expect(unitSymbol('shear_rate')).toBe('1/s')
    expect(unitSymbol('temperature')).toBe('K')
    expect(unitSymbol('volume')).toBe('liters')
    expect(unitSymbol('volume_flux')).toBe('m/s')
  })

  it('converts volume from m³ to liters by × 1000 and back', () => {
    expect(volumeToLiters(0.002)).toBe(2)
    expect(convertFromSi('volume', 0.5)).toBe(500)
    expect(convertToSi('volume', 500)).toBe(0.5)
  })

  it('leaves every other quantity in SI', () => {
    const notSi = Object.entries(QUANTITIES).filter(([, q]) => q.fromSi !== 1)
    expect(notSi.map(([name]) => name)).toEqual(['volume'])
    expect(convertFromSi('pressure', 101325)).toBe(101325)
  })

  it('converts STL upload units to metres', () => {
    expect(lengthToMetres(1500, 'mm')).toBeCloseTo(1.5)
    expect(lengthToMetres(10, 'in')).toBeCloseTo(0.254)
    expect(lengthToMetres(2, 'm')).toBe(2)
  })
})

describe('formatNumber', () => {
  it('keeps at most 12 significant digits and drops float noise', () => {
    expect(formatNumber(0.1 + 0.2)).toBe('0.3')
    expect(formatNumber(3 * 0.1)).toBe('0.3')
    expect(formatNumber(123.456789012345)).toBe('123.456789012')
    expect(formatNumber(-42)).toBe('-42')
  })

  it('formats zero and negative zero as 0', () => {
    expect(formatNumber(0)).toBe('0')
    expect(formatNumber(-0)).toBe('0')
  })

  it('switches to scientific notation below 1e-4', () => {
    expect(formatNumber(0.0001)).toBe('0.0001')
    expect(formatNumber(0.00001)).toBe('1e-5')
    expect(formatNumber(-1.5e-7)).toBe('-1.5e-7')
  })

  it('switches to scientific notation from 1e12 on', () => {
    expect(formatNumber(999_999_999_999)).toBe('999999999999')
    expect(formatNumber(1e12)).toBe('1e12')
    expect(formatNumber(123_456_789_012_345)).toBe('1.23456789012e14')
  })

  it('formats NaN as empty and infinities as ∞ signs', () => {
    expect(formatNumber(Number.NaN)).toBe('')
    expect(formatNumber(Infinity)).toBe('∞')
    expect(formatNumber(-Infinity)).toBe('-∞')
  })

  it('honours a smaller digit count', () => {
    expect(formatNumber(Math.PI, 4)).toBe('3.142')
  })
})

describe('formatDecimals', () => {
  it('rounds to the decimals and drops trailing zeros', () => {
    expect(formatDecimals(0.123456789123, 9)).toBe('0.123456789')
    expect(formatDecimals(0.5, 8)).toBe('0.5')
    expect(formatDecimals(2, 8)).toBe('2')
    expect(formatDecimals(-0.0000000001, 8)).toBe('0')
  })
})

describe('formatQuantity', () => {
  it('appends the unit, converting volume to liters', () => {
    expect(formatQuantity('velocity', 1.5)).toBe('1.5 m/s')
    expect(formatQuantity('volume', 0.001)).toBe('1 liters')
    expect(formatQuantity('dimensionless', 0.95)).toBe('0.95')
    expect(formatQuantity('pressure', Number.NaN)).toBe('')
  })
})

describe('formatCredits', () => {
  it('shows exactly 2 decimals with thousands separators', () => {
    expect(formatCredits(1234.5)).toBe('1,234.50')
    expect(formatCredits(0)).toBe('0.00')
    expect(formatCredits(0.005)).toBe('0.01')
    expect(formatCredits(-12.345)).toBe('-12.35')
    expect(formatCredits(-0.001)).toBe('0.00')
    expect(formatCredits(Number.NaN)).toBe('')
  })
})

describe('dates', () => {
  const date = new Date(2024, 2, 5, 9, 7)

  it('formats dates as dd.MM.yyyy', () => {
    expect(formatDate(date)).toBe('05.03.2024')
    expect(formatDate(date.getTime())).toBe('05.03.2024')
  })

  it('formats table dates as dd.MM.yyyy, HH:mm', () => {
    expect(formatDateTime(date)).toBe('05.03.2024, 09:07')
    expect(formatDateTime(new Date(2024, 11, 31, 23, 59))).toBe('31.12.2024, 23:59')
  })

  it('formats an invalid date as empty', () => {
    expect(formatDate('not a date')).toBe('')
    expect(formatDateTime(Number.NaN)).toBe('')
  })
})

describe('sizes', () => {
  it('formats byte sizes 1024-based with one decimal', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1024)).toBe('1 KB')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(5 * 1024 ** 3)).toBe('5 GB')
    expect(formatBytes(1024 ** 6)).toBe('1024 PB')
  })

  it('formats negative or non-finite sizes as empty', () => {
    expect(formatBytes(-1)).toBe('')
    expect(formatBytes(Number.NaN)).toBe('')
  })

  it("shows a zero project size as 'N/A'", () => {
    expect(formatSize(0)).toBe('N/A')
    expect(formatSize(2048)).toBe('2 KB')
  })
})

describe('formatHoursMinutes', () => {
  it('shows VM hours as hours and minutes', () => {
    expect(formatHoursMinutes(12.5)).toBe('12 h 30 min')
    expect(formatHoursMinutes(0)).toBe('0 h 0 min')
    expect(formatHoursMinutes(1 / 60)).toBe('0 h 1 min')
    expect(formatHoursMinutes(2.9999)).toBe('3 h 0 min')
  })

  it('keeps the sign of a negative balance and empties NaN', () => {
    expect(formatHoursMinutes(-1.25)).toBe('-1 h 15 min')
    expect(formatHoursMinutes(-0.001)).toBe('0 h 0 min')
    expect(formatHoursMinutes(Number.NaN)).toBe('')
  })
})

describe('formatCount', () => {
  it('writes counts with thousands separators and no decimals', () => {
    expect(formatCount(10726)).toBe('10,726')
    expect(formatCount(0)).toBe('0')
    expect(formatCount(1_234_567.4)).toBe('1,234,567')
  })
})
