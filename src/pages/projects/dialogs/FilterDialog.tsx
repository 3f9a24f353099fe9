import { useId, useState } from 'react'
import { Dialog, DialogForm } from '../../../components/Dialog.tsx'
import { Spinner } from '../../../components/Spinner.tsx'
import { useSlimProjectsQuery, useTeamUsersQuery } from '../../../queries/queries.ts'

export interface ProjectFilters {
  createdBy: readonly number[]
  projectIds: readonly number[]
}

function toggle(ids: readonly number[], id: number): number[] {
  return ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id]
}

/** Filter by user (createdBy; only with PROJECTS_VIEW_ALL) and by project (projectIds). */
export function FilterDialog({
  initial,
  canFilterByUser,
  onApply,
  onClose,
}: {
  initial: ProjectFilters
  canFilterByUser: boolean
  onApply: (filters: ProjectFilters) => void
  onClose: () => void
}) {
  const [createdBy, setCreatedBy] = useState<readonly number[]>(initial.createdBy)
  const [projectIds, setProjectIds] = useState<readonly number[]>(initial.projectIds)
  const [projectText, setProjectText] = useState('')
  const findId = useId()
  const usersQuery = useTeamUsersQuery(canFilterByUser)
  const projectsQuery = useSlimProjectsQuery()
  const needle = projectText.trim().toLowerCase()
  const projects = (projectsQuery.data?.results ?? []).filter(
    (p) => needle === '' || p.name.toLowerCase().includes(needle) || projectIds.includes(p.id),
  )

  return (
    <Dialog title="Filter projects" onClose={onClose}>
      <DialogForm
        onSubmit={() => onApply({ createdBy, projectIds })}
        footer={
          <>
            <button
              type="button"
              className="button button--ghost footer__start"
              onClick={() => {
                setCreatedBy([])
                setProjectIds([])
              }}
            >
              Reset
            </button>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button button--primary">
              Apply
            </button>
          </>
        }
      >
        <div className={`filter-grid${canFilterByUser ? '' : ' filter-grid--single'}`}>
          {canFilterByUser && (
            <fieldset className="filter-group">
              <legend className="filter-group__legend">Created by</legend>
              {usersQuery.isPending && <Spinner label="Loading users" />}
              <div className="check-list">
                {usersQuery.data?.map((user) => (
                  <label key={user.id} className="check">
                    <input
                      type="checkbox"
                      checked={createdBy.includes(user.id)}
                      onChange={() => setCreatedBy(toggle(createdBy, user.id))}
                    />
                    <span>{user.fullName}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          <fieldset className="filter-group">
            <legend className="filter-group__legend">Projects</legend>
            <label htmlFor={findId} className="visually-hidden">
              Find a project
            </label>
            <input
              id={findId}
              className="input input--small"
              placeholder="Find a project"
              value={projectText}
              onChange={(event) => setProjectText(event.target.value)}
            />
            {projectsQuery.isPending && <Spinner label="Loading projects" />}
            <div className="check-list check-list--scroll">
              {projects.map((project) => (
                <label key={project.id} className="check">
                  <input
                    type="checkbox"
                    checked={projectIds.includes(project.id)}
                    onChange={() => setProjectIds(toggle(projectIds, project.id))}
                  />
                  <span>{project.name}</span>
                </label>
              ))}
              {projectsQuery.isSuccess && projects.length === 0 && (
                <p className="muted">No matching projects</p>
              )}
            </div>
          </fieldset>
        </div>
      </DialogForm>
    </Dialog>
  )
}
