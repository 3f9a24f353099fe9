import { describe, expect, it } from 'vitest'
import { detectForeignFormat, isPrintableText } from './sniff.ts'

const bytes = (...values: number[]) => Uint8Array.from(values)
const text = (value: string) => new TextEncoder().encode(value)

describe('detectForeignFormat', () => {
  it('recognises images, archives, programs and markup by their first bytes', () => {
    expect(detectForeignFormat(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('png')
    expect(detectForeignFormat(bytes(0x50, 0x4b, 0x03, 0x04, 0))).toBe('zip')
    expect(detectForeignFormat(bytes(0x7f, 0x45, 0x4c, 0x46, 2))).toBe('elf')
    expect(detectForeignFormat(bytes(0x1f, 0x8b, 8))).toBe('gzip')
    expect(detectForeignFormat(text('#!/bin/sh\nrm -rf /'))).toBe('script')
    expect(detectForeignFormat(text('  <!DOCTYPE html><html>'))).toBe('markup')
    expect(
      detectForeignFormat(new Uint8Array([0x4d, 0x5a, ...new Array<number>(80).fill(0)])),
    ).toBe('exe')
  })

  it('lets STL and CSV content through', () => {
    expect(detectForeignFormat(text('solid part\nfacet normal 0 0 1\n'))).toBeNull()
    expect(detectForeignFormat(text('time,vel_x\n0,1\n'))).toBeNull()
    expect(detectForeignFormat(new Uint8Array(84))).toBeNull()
  })
})

describe('isPrintableText', () => {
  it('accepts text with tabs, line breaks and UTF-8, and refuses control bytes', () => {
    expect(isPrintableText(text('a\tb\r\nc,ä\n'))).toBe(true)
    expect(isPrintableText(bytes(0x61, 0x00, 0x62))).toBe(false)
    expect(isPrintableText(bytes(0x61, 0x1b, 0x62))).toBe(false)
  })
})
