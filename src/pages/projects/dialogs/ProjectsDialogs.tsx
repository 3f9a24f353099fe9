import { useAtom } from 'jotai'
import type { Project } from '../../../../domain/projects.ts'
import { projectsDialogAtom } from '../../../state/projectsDialogAtom.ts'
import type { ProjectsParams } from '../projectsParams.ts'
import { DeleteProjectDialog } from './DeleteProjectDialog.tsx'
import { DeleteSimulationDialog } from './DeleteSimulationDialog.tsx'
import { FilterDialog, type ProjectFilters } from './FilterDialog.tsx'
import { MoveSimulationDialog } from './MoveSimulationDialog.tsx'
import { ProjectFormDialog } from './ProjectFormDialog.tsx'
import { SimulationFormDialog } from './SimulationFormDialog.tsx'
import { UploadSimulationDialog } from './UploadSimulationDialog.tsx'

/** Renders the dialog projectsDialogAtom names, with its project and simulation from the list. */
export function ProjectsDialogs({
  projects,
  params,
  canViewAll,
  onApplyFilters,
}: {
  projects: readonly Project[]
  params: ProjectsParams
  canViewAll: boolean
  onApplyFilters: (filters: ProjectFilters) => void
}) {
  const [dialog, setDialog] = useAtom(projectsDialogAtom)
  if (!dialog) return null
  const close = () => setDialog(null)

  if (dialog.kind === 'new-project') return <ProjectFormDialog onClose={close} />
  if (dialog.kind === 'filter')
    return (
      <FilterDialog
        initial={params}
        canFilterByUser={canViewAll}
        onClose={close}
        onApply={(filters) => {
          close()
          onApplyFilters(filters)
        }}
      />
    )

  const project = projects.find((p) => p.id === dialog.projectId)
  if (!project) return null
  switch (dialog.kind) {
    case 'edit-project':
      return <ProjectFormDialog key={project.id} project={project} onClose={close} />
    case 'delete-project':
      return <DeleteProjectDialog project={project} onClose={close} />
    case 'new-simulation':
      return <SimulationFormDialog project={project} onClose={close} />
  }

  const simulation = project.simulations.find((s) => s.id === dialog.simulationId)
  if (!simulation) return null
  switch (dialog.kind) {
    case 'rename-simulation':
      return <SimulationFormDialog project={project} simulation={simulation} onClose={close} />
    case 'move-simulation':
      return (
        <MoveSimulationDialog
          simulation={simulation}
          currentProjectId={project.id}
          onClose={close}
        />
      )
    case 'upload-simulation':
      return <UploadSimulationDialog simulation={simulation} onClose={close} />
    case 'delete-simulation':
      return <DeleteSimulationDialog simulation={simulation} onClose={close} />
  }
}
