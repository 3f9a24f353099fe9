/**
 * The global particle lattice: site (i, j, k) sits at ((i + ½)·dp, (j + ½)·dp, (k + ½)·dp), so a
 * box from 0 to n·dp holds exactly n sites per axis and its faces lie half a spacing outside the
 * outer sites (where the solver expects wall surfaces). A SubGrid is the block of sites inside a
 * box, indexed x fastest.
 */
import type { BoundingBox } from '../geometry/mesh.ts'

/** A block of lattice sites: global indices i0 … i0 + nx − 1 and so on. */
export interface SubGrid {
  dp: number
  i0: number
  j0: number
  k0: number
  nx: number
  ny: number
  nz: number
}

/** Number of sites of a sub-grid. */
export function countSites(grid: SubGrid): number {
  return grid.nx * grid.ny * grid.nz
}

/** The sites inside `box` grown by `margin` on every side (an empty grid when there are none). */
export function subGridOfBox(box: BoundingBox, dp: number, margin = 0): SubGrid {
  const first = (lo: number) => Math.ceil((lo - margin) / dp - 0.5)
  const last = (hi: number) => Math.floor((hi + margin) / dp - 0.5)
  const i0 = first(box.min[0])
  const j0 = first(box.min[1])
  const k0 = first(box.min[2])
  return {
    dp,
    i0,
    j0,
    k0,
    nx: Math.max(0, last(box.max[0]) - i0 + 1),
    ny: Math.max(0, last(box.max[1]) - j0 + 1),
    nz: Math.max(0, last(box.max[2]) - k0 + 1),
  }
}

/** The number of sites `box` would hold, without building anything (for estimates). */
export function estimateSitesOfBox(box: BoundingBox, dp: number, margin = 0): number {
  const grid = subGridOfBox(box, dp, margin)
  return grid.nx * grid.ny * grid.nz
}

/** Coordinate of global lattice index `i`. */
export function siteCoordinate(i: number, dp: number): number {
  return (i + 0.5) * dp
}

/** Index in `grid` of global site (i, j, k), or −1 when outside. */
export function localIndexOf(grid: SubGrid, i: number, j: number, k: number): number {
  const a = i - grid.i0
  const b = j - grid.j0
  const c = k - grid.k0
  if (a < 0 || b < 0 || c < 0 || a >= grid.nx || b >= grid.ny || c >= grid.nz) return -1
  return a + grid.nx * (b + grid.ny * c)
}

/**
 * A hash table from site keys (integers 0 … 2^53) to dense slots 0, 1, 2 … in insertion order;
 * open addressing over typed arrays, several times faster than a Map for millions of sites.
 * Plain data and functions: the hot loops must not go through private-field helpers.
 */
export interface SiteTable {
  keys: Float64Array
  slots: Int32Array
  mask: number
  count: number
  /** Whether the last insertSite added its key. */
  added: boolean
}

/** An empty table sized for about `expected` keys. */
export function createSiteTable(expected = 1024): SiteTable {
  let size = 1024
  while (size < expected * 2) size *= 2
  return {
    keys: new Float64Array(size).fill(-1),
    slots: new Int32Array(size),
    mask: size - 1,
    count: 0,
    added: false,
  }
}

function hashSite(key: number): number {
  const lo = key >>> 0
  const hi = (key / 4294967296) >>> 0
  const h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + 0x7f4a7c15, 0x85ebca77)
  return (h ^ (h >>> 15)) >>> 0
}

function growSiteTable(table: SiteTable): void {
  const { keys, slots } = table
  table.keys = new Float64Array(keys.length * 2).fill(-1)
  table.slots = new Int32Array(keys.length * 2)
  table.mask = table.keys.length - 1
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (key === -1) continue
    let h = hashSite(key) & table.mask
    while (table.keys[h] !== -1) h = (h + 1) & table.mask
    table.keys[h] = key
    table.slots[h] = slots[i]!
  }
}

/** The slot of `key`, adding it (as slot count − 1, table.added = true) when new. */
export function insertSite(table: SiteTable, key: number): number {
  if ((table.count + 1) * 2 > table.keys.length) growSiteTable(table)
  const keys = table.keys
  const mask = table.mask
  let h = hashSite(key) & mask
  for (;;) {
    const k = keys[h]!
    if (k === key) {
      table.added = false
      return table.slots[h]!
    }
    if (k === -1) {
      keys[h] = key
      table.slots[h] = table.count
      table.added = true
      return table.count++
    }
    h = (h + 1) & mask
  }
}

/** The slot of `key`, or −1 when the table does not hold it. */
export function findSite(table: SiteTable, key: number): number {
  const keys = table.keys
  const mask = table.mask
  let h = hashSite(key) & mask
  for (;;) {
    const k = keys[h]!
    if (k === key) return table.slots[h]!
    if (k === -1) return -1
    h = (h + 1) & mask
  }
}
