import { describe, expect, it } from 'vitest'
import { formatBytes, formatCredits, formatDateTime, formatSize, initialsOf } from './format.ts'

describe('format', () => {
  it('writes sizes in decimal units and N/A for nothing stored', () => {
    expect(formatBytes(950)).toBe('950 B')
    expect(formatBytes(1_500_000)).toBe('1.5 MB')
    expect(formatBytes(12_300_000_000)).toBe('12 GB')
    expect(formatSize(0)).toBe('N/A')
    expect(formatSize(2048)).toBe('2.0 kB')
  })

  it('writes credits with two decimals', () => {
    expect(formatCredits(3)).toBe('3.00')
    expect(formatCredits(12.345)).toBe('12.35')
  })

  it('writes dates as dd.MM.yyyy, HH:mm in local time', () => {
    const local = new Date(2026, 0, 5, 7, 4)
    expect(formatDateTime(local.toISOString())).toBe('05.01.2026, 07:04')
    expect(formatDateTime(null)).toBe('–')
    expect(formatDateTime('not a date')).toBe('–')
  })

  it('takes initials from the first and last name', () => {
    expect(initialsOf('Mia Manager')).toBe('MM')
    expect(initialsOf('Ada  Lovelace King')).toBe('AK')
    expect(initialsOf('')).toBe('?')
  })
})
