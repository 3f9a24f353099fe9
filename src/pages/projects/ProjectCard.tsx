import { useSetAtom } from 'jotai'
import { Link } from 'react-router'
import { PROJECT_DESCRIPTION_TRUNCATE } from '../../../domain/limits.ts'
import type { Project } from '../../../domain/projects.ts'
import { IconEdit, IconFolder, IconPlus, IconTrash } from '../../components/icons.tsx'
import { TruncatedText } from '../../components/TruncatedText.tsx'
import { formatDateTime, formatSize } from '../../lib/format.ts'
import { projectsDialogAtom } from '../../state/projectsDialogAtom.ts'
import { projectPageLink } from './projectLinks.ts'
import { SimulationTable } from './SimulationTable.tsx'

/** One project: its summary, its buttons and its simulation list. */
export function ProjectCard({
  project,
  userId,
  showOwner,
  uploadEnabled,
}: {
  project: Project
  userId: number
  showOwner: boolean
  uploadEnabled: boolean
}) {
  const setDialog = useSetAtom(projectsDialogAtom)
  const count = project.simulations.length
  return (
    <article className="card project-card" aria-label={`Project ${project.name}`}>
      <header className="project-card__header">
        <div className="project-card__icon" aria-hidden="true">
          <IconFolder width={18} height={18} />
        </div>
        <div className="project-card__summary">
          <h2 className="project-card__name">
            <Link to={projectPageLink(project, userId)}>{project.name}</Link>
          </h2>
          {project.description && (
            <p className="project-card__description">
              <TruncatedText text={project.description} maxChars={PROJECT_DESCRIPTION_TRUNCATE} />
            </p>
          )}
          <dl className="project-card__meta">
            <div>
              <dt>Simulations</dt>
              <dd>{count}</dd>
            </div>
            <div>
              <dt>Size</dt>
              <dd>{formatSize(project.size)}</dd>
            </div>
            {showOwner && (
              <div>
                <dt>Owner</dt>
                <dd>{project.creator.fullName}</dd>
              </div>
            )}
            <div>
              <dt>Updated</dt>
              <dd>{formatDateTime(project.updatedAt)}</dd>
            </div>
          </dl>
        </div>
        <div className="project-card__actions">
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => setDialog({ kind: 'edit-project', projectId: project.id })}
          >
            <IconEdit />
            Edit
          </button>
          <button
            type="button"
            className="button button--secondary button--small button--danger-text"
            onClick={() => setDialog({ kind: 'delete-project', projectId: project.id })}
          >
            <IconTrash />
            Delete
          </button>
          <button
            type="button"
            className="button button--primary button--small"
            onClick={() => setDialog({ kind: 'new-simulation', projectId: project.id })}
          >
            <IconPlus />
            New Simulation
          </button>
        </div>
      </header>
      <SimulationTable
        projectId={project.id}
        simulations={project.simulations}
        uploadEnabled={uploadEnabled}
      />
    </article>
  )
}
