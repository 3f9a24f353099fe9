import { useQuery } from '@tanstack/react-query'
import { useAtom } from 'jotai'
import { decodeAirDragGridFile, type AirDragGrid } from '../../../../../domain/airDragGridFile.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { formatNumber } from '../../../../../domain/units.ts'
import { ApiError } from '../../../../api/ApiError.ts'
import { fetchAirDragGrid } from '../../../../api/files.ts'
import { usePeriodicsQuery } from '../../setup/objects/objectQueries.ts'
import { airDragGridVisibleAtom } from './explorerAtoms.ts'

/*
 * The explorer's Domain items (spec/results.md §2): Air Drag (enabled or not; with air drag on,
 * its grid, fetched as a binary and drawn over the results while 'Show grid' is checked) and
 * Periodic Boundary (its slice, or not defined).
 */

/** The air drag domain's grid, with air drag on (null: off, or no domain with cells). */
export function useAirDragGridQuery(simulation: Simulation) {
  return useQuery({
    queryKey: ['airDragGrid', simulation.id],
    enabled: simulation.settings.airDrag,
    retry: false,
    queryFn: async ({ signal }): Promise<AirDragGrid | null> => {
      try {
        return decodeAirDragGridFile(new Uint8Array(await fetchAirDragGrid(simulation.id, signal)))
      } catch (error) {
        // no domain, or one without cells yet: nothing to draw, the item offers no grid
        if (error instanceof ApiError && error.status === 404) return null
        throw error
      }
    },
  })
}

/** 'Grid 20 × 10 × 5 cells of 0.1 m'. */
export function gridText(grid: AirDragGrid): string {
  const [nx, ny, nz] = grid.dims.map((n) => formatNumber(n))
  return `Grid ${nx} × ${ny} × ${nz} cells of ${formatNumber(grid.cellSize)} m`
}

function AirDragItem({ simulation }: { simulation: Simulation }) {
  const on = simulation.settings.airDrag
  const grid = useAirDragGridQuery(simulation)
  const [visible, setVisible] = useAtom(airDragGridVisibleAtom)
  return (
    <li className="explorer__item explorer__item--stacked" aria-label="Air Drag">
      <div className="explorer__item-row">
        <span className="explorer__name">Air Drag</span>
        <span className="explorer__status">{on ? 'Enabled' : 'Not enabled'}</span>
      </div>
      {on && grid.data && (
        <div className="explorer__item-row">
          <input
            id="air-drag-grid-visible"
            type="checkbox"
            className="explorer__visibility"
            checked={visible}
            onChange={(event) => setVisible(event.target.checked)}
          />
          <label htmlFor="air-drag-grid-visible" className="explorer__name">
            Show grid
          </label>
        </div>
      )}
      {on && grid.data && <p className="explorer__hint">{gridText(grid.data)}</p>}
      {on && grid.isError && (
        <p className="explorer__hint">The air drag grid could not be loaded.</p>
      )}
    </li>
  )
}

function PeriodicItem({ simulation }: { simulation: Simulation }) {
  const periodic = usePeriodicsQuery(simulation.id).data?.[0]
  const angle = periodic?.sliceAngle
  const status =
    periodic === undefined
      ? 'Not defined'
      : angle === null || angle === undefined
        ? 'Defined'
        : `Slice of ${formatNumber(angle)}°`
  return (
    <li className="explorer__item" aria-label="Periodic Boundary">
      <span className="explorer__name">Periodic Boundary</span>
      <span className="explorer__status">{status}</span>
    </li>
  )
}

/** The Domain section: the Air Drag and Periodic Boundary items. */
export function DomainItems({ simulation }: { simulation: Simulation }) {
  return (
    <section className="explorer__section" aria-label="Domain">
      <ul className="explorer__list">
        <AirDragItem simulation={simulation} />
        <PeriodicItem simulation={simulation} />
      </ul>
    </section>
  )
}
