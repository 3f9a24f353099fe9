/**
 * The air drag grid over the results (the Results explorer's Air Drag item toggles it): the
 * domain's box outline and its cell centres as points (airDragGridGeometry.ts), in the setup
 * view's air drag colour, drawn with the shown output. Nothing here is picked.
 */
import {
  BufferGeometry,
  Color,
  Float32BufferAttribute,
  Group,
  LineBasicMaterial,
  LineSegments,
  Points,
  PointsMaterial,
  type Object3D,
} from 'three'
import type { AirDragGridOverlay } from '../overlayProtocol.ts'
import { airDragGridGeometry } from './airDragGridGeometry.ts'

/** The setup view's air drag domain colour (src/pages/simulation/setup/objects/objectViews.ts). */
export const AIR_DRAG_GRID_COLOUR = '#2D69B2'
/** Cell points, pixels across. */
const POINT_SIZE_PX = 3

/** The grid's drawn objects (none until a grid is shown). */
export class AirDragGridObject {
  #root = new Group()
  #lineMaterial = new LineBasicMaterial({ color: new Color(AIR_DRAG_GRID_COLOUR) })
  #pointMaterial = new PointsMaterial({
    color: new Color(AIR_DRAG_GRID_COLOUR),
    size: POINT_SIZE_PX,
    sizeAttenuation: false,
  })
  #key: string | null = null

  constructor() {
    this.#root.name = 'air_drag_grid'
  }

  root(): Object3D {
    return this.#root
  }

  /** Shows `overlay`'s grid, or nothing (null or hidden); an unchanged grid is not rebuilt. */
  set(overlay: AirDragGridOverlay | null | undefined): void {
    const grid = overlay?.visible ? overlay.grid : null
    const key = grid === null ? null : JSON.stringify(grid)
    if (key === this.#key) return
    this.#key = key
    this.#clear()
    if (grid === null) return
    const { outline, points } = airDragGridGeometry(grid)
    const lines = new BufferGeometry()
    lines.setAttribute('position', new Float32BufferAttribute(outline, 3))
    const cells = new BufferGeometry()
    cells.setAttribute('position', new Float32BufferAttribute(points, 3))
    this.#root.add(new LineSegments(lines, this.#lineMaterial))
    this.#root.add(new Points(cells, this.#pointMaterial))
  }

  /** Points drawn (0 while hidden). */
  drawnPoints(): number {
    let count = 0
    for (const child of this.#root.children)
      if (child instanceof Points)
        count += (child.geometry as BufferGeometry).attributes.position!.count
    return count
  }

  dispose(): void {
    this.#clear()
    this.#lineMaterial.dispose()
    this.#pointMaterial.dispose()
  }

  #clear(): void {
    for (const child of [...this.#root.children]) {
      this.#root.remove(child)
      if (child instanceof LineSegments || child instanceof Points)
        (child.geometry as BufferGeometry).dispose()
    }
  }
}
