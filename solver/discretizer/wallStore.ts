/**
 * Wall particles as they are placed: growable arrays, and the cells they fall in, so that a wall
 * particle of another part within half a diameter can be left out.
 */
import { createSiteTable, findSite, insertSite } from './lattice.ts'

/** Wall particles of different parts nearer than this share of dp: the later one is left out. */
const WALL_SEPARATION = 0.5

/** Growable wall particle arrays. */
export class WallStore {
  count = 0
  positions = new Float64Array(3 * 1024)
  partIds = new Int32Array(1024)
  normals = new Float32Array(3 * 1024)

  push(x: number, y: number, z: number, partId: number, nx: number, ny: number, nz: number) {
    if (this.count === this.partIds.length) {
      const grow = <T extends Float64Array | Int32Array | Float32Array>(
        a: T,
        make: (n: number) => T,
      ) => {
        const next = make(a.length * 2)
        next.set(a)
        return next
      }
      this.positions = grow(this.positions, (n) => new Float64Array(n))
      this.partIds = grow(this.partIds, (n) => new Int32Array(n))
      this.normals = grow(this.normals, (n) => new Float32Array(n))
    }
    const w = this.count++
    this.positions[w * 3] = x
    this.positions[w * 3 + 1] = y
    this.positions[w * 3 + 2] = z
    this.partIds[w] = partId
    this.normals[w * 3] = nx
    this.normals[w * 3 + 1] = ny
    this.normals[w * 3 + 2] = nz
  }
}

/** Cells of the wall particles placed so far, for leaving out near duplicates of other parts. */
export class WallCells {
  #table = createSiteTable(1 << 12)
  #heads = new Int32Array(1 << 12).fill(-1)
  #next = new Int32Array(1 << 12)
  #dp: number

  constructor(dp: number) {
    this.#dp = dp
  }

  #key(i: number, j: number, k: number): number {
    // cells of a cube 2^17 cells on a side around the origin: exact in a double
    const span = 1 << 17
    return i + span / 2 + span * (j + span / 2 + span * (k + span / 2))
  }

  add(store: WallStore, w: number): void {
    const dp = this.#dp
    const p = store.positions
    const slot = insertSite(
      this.#table,
      this.#key(
        Math.floor(p[w * 3]! / dp),
        Math.floor(p[w * 3 + 1]! / dp),
        Math.floor(p[w * 3 + 2]! / dp),
      ),
    )
    if (slot >= this.#heads.length) {
      const heads = new Int32Array(this.#heads.length * 2).fill(-1)
      heads.set(this.#heads)
      this.#heads = heads
    }
    if (w >= this.#next.length) {
      const next = new Int32Array(Math.max(w + 1, this.#next.length * 2))
      next.set(this.#next)
      this.#next = next
    }
    this.#next[w] = this.#heads[slot]!
    this.#heads[slot] = w
  }

  /** Whether a particle of another part lies within WALL_SEPARATION·dp of (x, y, z). */
  isTaken(store: WallStore, x: number, y: number, z: number, partId: number): boolean {
    const dp = this.#dp
    const limit = (WALL_SEPARATION * dp) ** 2
    const ci = Math.floor(x / dp)
    const cj = Math.floor(y / dp)
    const ck = Math.floor(z / dp)
    const p = store.positions
    for (let dk = -1; dk <= 1; dk++)
      for (let dj = -1; dj <= 1; dj++)
        for (let di = -1; di <= 1; di++) {
          const slot = findSite(this.#table, this.#key(ci + di, cj + dj, ck + dk))
          if (slot < 0) continue
          for (let w = this.#heads[slot]!; w >= 0; w = this.#next[w]!) {
            if (store.partIds[w] === partId) continue
            const dx = p[w * 3]! - x
            const dy = p[w * 3 + 1]! - y
            const dz = p[w * 3 + 2]! - z
            if (dx * dx + dy * dy + dz * dz < limit) return true
          }
        }
    return false
  }
}
