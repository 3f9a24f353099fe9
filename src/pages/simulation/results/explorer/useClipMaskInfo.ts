import { useSetAtom } from 'jotai'
import { useEffect } from 'react'
import type { VolumeClip } from '../../../../../domain/meshes.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import { clipMaskInfoAtom } from './explorerAtoms.ts'

/**
 * Keeps clipMaskInfoAtom in step with the shown output: every clip starts as missing at a new
 * output until its mask is known.
 */
export function useClipMaskInfo(
  _simulation: Simulation,
  _list: OutputManifestList,
  clips: readonly VolumeClip[],
  shownOutput: number | null,
) {
  const setInfo = useSetAtom(clipMaskInfoAtom)
  const clipKey = clips.map((clip) => `${clip.id}:${clip.mesh.id}`).join(',')
  useEffect(() => {
    setInfo({})
  }, [setInfo, clipKey, shownOutput])
}
