import { useSetAtom } from 'jotai'
import { useEffect } from 'react'
import type { Project, Simulation } from '../../../../domain/projects.ts'
import { useCurrentUser } from '../../../lib/currentUser.ts'
import { AssemblyWizard } from './assemblies/AssemblyWizard.tsx'
import { ImportingFileWidget } from './assemblies/ImportingFileWidget.tsx'
import { DiscretizationControls } from './discretization/DiscretizationControls.tsx'
import { SetupExplorer } from './explorer/SetupExplorer.tsx'
import { SetupEditableContext } from './forms/fields/editable.ts'
import { SideFormHost } from './forms/SideFormHost.tsx'
import { MovementTimeline } from './movements/MovementTimeline.tsx'
import { setupEditability } from './setupEditability.ts'
import { assemblyWizardAtom, setupSelectionAtom, sideFormAtom } from './state/setupAtoms.ts'
import { SetupToolbar } from './toolbar/SetupToolbar.tsx'
import { InputValidationBar } from './validation/InputValidationBar.tsx'
import { SetupViewport } from './viewport/SetupViewport.tsx'
import './setup.css'

/**
 * The Setup view of /simulation/{id}/preprocessor (spec/setup.md §2): the toolbar (Add, Physics,
 * Settings, the selection's folders, Discretize) over the object explorer, the open side form and
 * the 3D view with its movement timeline; the Input Validation bar below.
 */
export function SetupEditor({
  simulation,
  project,
}: {
  simulation: Simulation
  project: Project | undefined
}) {
  const user = useCurrentUser()
  const editable = setupEditability(simulation, user, project)
  useResetOnSimulationChange(simulation.id)
  return (
    <SetupEditableContext.Provider value={editable}>
      <div className="setup-page">
        <div className="setup-page__toolbar">
          <SetupToolbar simulation={simulation} />
          <DiscretizationControls simulation={simulation} />
          <ImportingFileWidget simulation={simulation} />
        </div>
        <div className="setup-page__body">
          <aside className="setup-page__explorer" aria-label="Object explorer">
            <SetupExplorer simulation={simulation} />
          </aside>
          <SideFormHost simulation={simulation} />
          <section className="setup-page__view" aria-label="Setup view">
            <SetupViewport simulation={simulation} />
            <MovementTimeline simulation={simulation} />
          </section>
        </div>
        <InputValidationBar simulation={simulation} />
      </div>
      <AssemblyWizard simulation={simulation} />
    </SetupEditableContext.Provider>
  )
}

/** Selection and the open form belong to one simulation: another one starts clean. */
function useResetOnSimulationChange(simulationId: number) {
  const setSelection = useSetAtom(setupSelectionAtom)
  const setForm = useSetAtom(sideFormAtom)
  const setWizard = useSetAtom(assemblyWizardAtom)
  useEffect(() => {
    setSelection([])
    setForm(null)
    setWizard(null)
  }, [simulationId, setSelection, setForm, setWizard])
}
