import { useAtomValue } from 'jotai'
import { useMemo } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import { viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { useSensorsQuery, useVolumeClipsQuery } from './explorerApi.ts'
import { groupOutputObjects } from './explorerModel.ts'
import { DomainItems } from './DomainItems.tsx'
import { OutputObjectsSection } from './OutputObjectsSection.tsx'
import { SensorsSection } from './SensorsSection.tsx'
import { useClipMaskInfo } from './useClipMaskInfo.ts'
import { VolumeClipsSection } from './VolumeClipsSection.tsx'
import './explorer.css'

/**
 * The results explorer (spec/results.md §2): output objects (fluids per material, walls, open
 * boundaries) with their views, sensors with the Compute Sensors job, volume clips, and the Air
 * Drag and Periodic Boundary items.
 */
export function ResultsExplorer({
  simulation,
  list,
}: {
  simulation: Simulation
  list: OutputManifestList
}) {
  const snapshot = useAtomValue(viewportStateAtom).snapshot
  const shownOutput = snapshot?.shownOutput ?? list.outputs[0]?.outputNo ?? null
  const manifest = list.outputs.find((output) => output.outputNo === shownOutput) ?? list.outputs[0]
  const groups = useMemo(() => groupOutputObjects(manifest), [manifest])
  const sensors = useSensorsQuery(simulation)
  const clips = useVolumeClipsQuery(simulation)
  useClipMaskInfo(simulation, clips.data ?? [], shownOutput, snapshot?.playing ?? false)

  const partNames = [...groups.walls, ...groups.openBoundaries].map((part) => part.name)
  const sensorNames = (sensors.data ?? []).map((sensor) => sensor.name)
  const clipNames = (clips.data ?? []).map((clip) => clip.name)

  return (
    <aside className="explorer" aria-label="Results explorer">
      <OutputObjectsSection groups={groups} />
      <SensorsSection
        simulation={simulation}
        shownOutput={shownOutput}
        otherNames={[...partNames, ...clipNames]}
      />
      <VolumeClipsSection
        simulation={simulation}
        fluids={groups.fluids}
        otherNames={[...partNames, ...sensorNames]}
      />
      <DomainItems simulation={simulation} />
    </aside>
  )
}
