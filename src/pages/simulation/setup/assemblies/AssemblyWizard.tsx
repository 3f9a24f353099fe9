import { useAtom } from 'jotai'
import { useEffect, useRef } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import { Dialog } from '../../../../components/Dialog.tsx'
import { assemblyWizardAtom, type AssemblyWizardState } from '../state/setupAtoms.ts'
import type { UploadTransport } from '../uploads/uploadRequest.ts'
import { useAssemblyPartsQuery, useAssemblyQuery } from './assemblyQueries.ts'
import { OrganizePartsStep } from './OrganizePartsStep.tsx'
import { TessellationStep } from './TessellationStep.tsx'
import { WIZARD_STEPS, WIZARD_TITLE, canGoNext, type WizardStep } from './wizardModel.ts'
import './assemblies.css'
import './assemblyParts.css'

/**
 * The CAD assembly import wizard (spec/setup.md §2), open while assemblyWizardAtom says so: a modal
 * with the steps '1. Organizing parts' and '2. Tessellation'. Each step takes focus when it shows;
 * Escape, the close button and Cancel close it (the file and its parts stay on the server).
 */
export function AssemblyWizard({
  simulation,
  transport,
}: {
  simulation: Simulation
  /** Test double of the STEP upload's XMLHttpRequest. */
  transport?: UploadTransport
}) {
  const [wizard, setWizard] = useAtom(assemblyWizardAtom)
  if (!wizard) return null
  return (
    <WizardDialog
      simulation={simulation}
      wizard={wizard}
      onChange={setWizard}
      transport={transport}
    />
  )
}

function WizardDialog(props: {
  simulation: Simulation
  wizard: AssemblyWizardState
  onChange: (wizard: AssemblyWizardState | null) => void
  transport?: UploadTransport
}) {
  const { wizard, onChange } = props
  const assembly = useAssemblyQuery(wizard.assemblyId).data ?? null
  const parts = useAssemblyPartsQuery(wizard.assemblyId).data ?? []
  const shown = wizard.assemblyId !== null && assembly?.id === wizard.assemblyId ? assembly : null
  // Step 2 needs what Next needs; a file that lost its parts goes back to step 1.
  const step: WizardStep =
    wizard.step === 'tessellate' && shown && canGoNext(shown, parts) ? 'tessellate' : 'organize'
  const close = () => onChange(null)
  const stepRef = useRef<HTMLOListElement>(null)
  const firstStep = useRef(true)

  useEffect(() => {
    // The dialog focuses the steps when it opens; later step changes move focus there again.
    if (firstStep.current) {
      firstStep.current = false
      return
    }
    stepRef.current?.focus()
  }, [step])

  return (
    <Dialog title={WIZARD_TITLE} subtitle={shown?.filename} onClose={close}>
      <div className="assembly-wizard">
        <ol
          ref={stepRef}
          className="assembly-wizard__steps"
          aria-label="Steps"
          tabIndex={-1}
          data-autofocus
        >
          {(Object.keys(WIZARD_STEPS) as WizardStep[]).map((key) => (
            <li
              key={key}
              aria-current={key === step ? 'step' : undefined}
              className={`assembly-wizard__step${key === step ? ' assembly-wizard__step--current' : ''}`}
            >
              {WIZARD_STEPS[key]}
            </li>
          ))}
        </ol>
        {step === 'tessellate' && shown ? (
          <TessellationStep
            simulationId={props.simulation.id}
            assembly={shown}
            parts={parts}
            onBack={() => onChange({ ...wizard, step: 'organize' })}
            onStarted={close}
          />
        ) : (
          <OrganizePartsStep
            simulationId={props.simulation.id}
            assembly={shown}
            parts={wizard.assemblyId === null ? [] : parts}
            onAssemblyChange={(assemblyId) => onChange({ assemblyId, step: 'organize' })}
            onCancel={close}
            onNext={() => onChange({ ...wizard, step: 'tessellate' })}
            transport={props.transport}
          />
        )}
      </div>
    </Dialog>
  )
}
