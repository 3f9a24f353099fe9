import { useAtom } from 'jotai'
import { createElement, useId, type ComponentType } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import { IconClose } from '../../../../components/icons.tsx'
import { BIG_SIDE_FORMS, sideFormAtom, type SideForm } from '../state/setupAtoms.ts'
import { SETUP_OBJECT_FORMS } from '../objects/objectForms.ts'
import { MOTION_FORMS } from './motionForms.ts'
import { PROPERTY_FORMS } from './propertyForms.ts'
import { SIDE_FORM_TITLES, type SideFormProps, type SideFormRegistry } from './registry.ts'

const FORMS: SideFormRegistry = { ...PROPERTY_FORMS, ...MOTION_FORMS, ...SETUP_OBJECT_FORMS }

/** The open side form beside the explorer (big forms wide, small forms narrow), with Close. */
export function SideFormHost({ simulation }: { simulation: Simulation }) {
  const [form, setForm] = useAtom(sideFormAtom)
  const titleId = useId()
  if (form === null) return null
  const component = FORMS[form.kind] as ComponentType<SideFormProps<SideForm['kind']>> | undefined
  if (!component) return null
  const size = BIG_SIDE_FORMS.includes(form.kind) ? 'big' : 'small'
  return (
    <section
      className={`setup-side-form setup-side-form--${size}`}
      aria-labelledby={titleId}
      data-form={form.kind}
    >
      <div className="setup-side-form__header">
        <h2 id={titleId} className="setup-side-form__title">
          {SIDE_FORM_TITLES[form.kind]}
        </h2>
        <button
          type="button"
          className="icon-button"
          aria-label={`Close ${SIDE_FORM_TITLES[form.kind]}`}
          onClick={() => setForm(null)}
        >
          <IconClose />
        </button>
      </div>
      <div className="setup-side-form__body">{createElement(component, { simulation, form })}</div>
    </section>
  )
}
