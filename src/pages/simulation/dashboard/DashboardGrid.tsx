import { GridLayout, useContainerWidth, type Layout } from 'react-grid-layout'
import 'react-grid-layout/css/styles.css'
import {
  DASHBOARD_GRID,
  TILE_MIN_SIZES,
  type DashboardView,
  type TileLayout,
} from '../../../../domain/dashboards.ts'
import { DashboardTileView, type TileContext } from './DashboardTiles.tsx'

/** Tiles whose place differs between the stored view and the grid's layout. */
export function changedPlaces(
  view: DashboardView,
  layout: Layout,
): ({ id: number } & TileLayout)[] {
  const changed: ({ id: number } & TileLayout)[] = []
  for (const item of layout) {
    const tile = view.tiles.find((t) => String(t.id) === item.i)
    if (!tile) continue
    if (tile.x !== item.x || tile.y !== item.y || tile.w !== item.w || tile.h !== item.h)
      changed.push({ id: tile.id, x: item.x, y: item.y, w: item.w, h: item.h })
  }
  return changed
}

/**
 * The view's tiles on react-grid-layout: 12 columns, rows of 150 px, 16 px margins, each tile no
 * smaller than its type's minimum. Tiles drag by their header; a drag or resize is saved with
 * PUT /dashboards/{id} (only the tiles that moved).
 */
export function DashboardGrid({
  view,
  context,
  onPlacesChange,
}: {
  view: DashboardView
  context: TileContext
  onPlacesChange: (places: ({ id: number } & TileLayout)[]) => void
}) {
  const { width, containerRef, mounted } = useContainerWidth()
  const layout: Layout = view.tiles.map((tile) => ({
    i: String(tile.id),
    x: tile.x,
    y: tile.y,
    w: tile.w,
    h: tile.h,
    minW: TILE_MIN_SIZES[tile.type].w,
    minH: TILE_MIN_SIZES[tile.type].h,
  }))
  const save = (next: Layout) => {
    const changed = changedPlaces(view, next)
    if (changed.length > 0) onPlacesChange(changed)
  }
  return (
    <div ref={containerRef} className="dashboard-grid">
      {mounted && (
        <GridLayout
          width={width}
          layout={layout}
          gridConfig={{
            cols: DASHBOARD_GRID.columns,
            rowHeight: DASHBOARD_GRID.rowHeightPx,
            margin: [DASHBOARD_GRID.marginPx, DASHBOARD_GRID.marginPx],
            containerPadding: [0, 0],
          }}
          dragConfig={{
            handle: '.dashboard-tile__handle',
            cancel: 'button, input, textarea, select, a',
          }}
          onDragStop={save}
          onResizeStop={save}
        >
          {view.tiles.map((tile) => (
            <div key={String(tile.id)} className="dashboard-grid__item" data-tile-type={tile.type}>
              <DashboardTileView tile={tile} context={context} />
            </div>
          ))}
        </GridLayout>
      )}
    </div>
  )
}
