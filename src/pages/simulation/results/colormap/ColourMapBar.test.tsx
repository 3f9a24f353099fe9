import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { Provider as JotaiProvider } from 'jotai'
import { afterEach, describe, expect, it } from 'vitest'
import { COLOUR_SCHEMES } from '../../../../../domain/constants.ts'
import { COLOUR_MAP_STATUS, COLOUR_RANGE_MESSAGE } from '../../../../../domain/results.ts'
import { colourMapChoiceAtom } from '../../../../state/viewportAtoms.ts'
import { storeWithEngine } from '../layout/testEngine.ts'
import type { AttributeOption } from '../resultsModel.ts'
import { ColourMapBar } from './ColourMapBar.tsx'
import { schemeGradient, schemeLabel } from './schemes.ts'

const OPTIONS: AttributeOption[] = [
  {
    attribute: 'velocity',
    label: 'Velocity',
    kind: 'vector',
    unit: 'm/s',
    columns: ['vx', 'vy', 'vz'],
  },
  { attribute: 'pressure', label: 'Pressure', kind: 'scalar', unit: 'Pa', columns: ['pressure'] },
]

afterEach(cleanup)

function renderBar(snapshot = storeWithEngine()) {
  render(
    <JotaiProvider store={snapshot.store}>
      <ColourMapBar options={OPTIONS} />
    </JotaiProvider>,
  )
  return snapshot
}

const field = (name: 'Min' | 'Max') => screen.getByLabelText<HTMLInputElement>(name)

describe('ColourMapBar', () => {
  it('offers the output attributes with units, and the vector component only for vectors', () => {
    const { store } = renderBar()
    const attribute = screen.getByLabelText<HTMLSelectElement>('Attribute')
    expect([...attribute.options].map((option) => option.text)).toEqual([
      'Velocity (m/s)',
      'Pressure (Pa)',
    ])
    const component = screen.getByLabelText<HTMLSelectElement>('Component')
    expect([...component.options].map((option) => option.value)).toEqual([
      'x',
      'y',
      'z',
      'magnitude',
    ])
    fireEvent.change(component, { target: { value: 'y' } })
    expect(store.get(colourMapChoiceAtom).subOption).toBe('y')
    fireEvent.change(attribute, { target: { value: 'pressure' } })
    expect(store.get(colourMapChoiceAtom)).toMatchObject({ attribute: 'pressure', range: null })
    expect(screen.queryByLabelText('Component')).toBeNull()
  })

  it('shows the range in use with ticks at 25, 50 and 75 %', () => {
    const harness = storeWithEngine()
    harness.setSnapshot({ colourRange: { min: 100, max: 500 } })
    renderBar(harness)
    expect(field('Min').value).toBe('100')
    expect(field('Max').value).toBe('500')
    const labels = within(screen.getByTestId('colour-map-ticks')).getAllByText(/\d/)
    expect(labels.map((label) => label.textContent)).toEqual(['200', '300', '400'])
    expect(labels.map((label) => label.style.left)).toEqual(['25%', '50%', '75%'])
    // A new range from the engine (next output) moves fields and ticks along.
    act(() => harness.setSnapshot({ colourRange: { min: 0, max: 1 } }))
    expect(field('Max').value).toBe('1')
    expect(screen.getByTestId('colour-map-ticks').textContent).toBe('0.250.50.75')
  })

  it("refuses a max that is not above the min with 'Max must be greater than Min.' and keeps the range", () => {
    const { store } = renderBar()
    fireEvent.change(field('Min'), { target: { value: '5' } })
    fireEvent.change(field('Max'), { target: { value: '5' } })
    fireEvent.keyDown(field('Max'), { key: 'Enter' })
    expect(screen.getByRole('alert').textContent).toBe(COLOUR_RANGE_MESSAGE)
    expect(field('Max').getAttribute('aria-invalid')).toBe('true')
    expect(store.get(colourMapChoiceAtom).range).toBeNull()
    // Fixing it applies it and clears the message.
    fireEvent.change(field('Max'), { target: { value: '8' } })
    fireEvent.keyDown(field('Max'), { key: 'Enter' })
    expect(screen.queryByRole('alert')).toBeNull()
    expect(store.get(colourMapChoiceAtom).range).toEqual({ min: 5, max: 8 })
  })

  it('does not pin the shown data range as a custom one when the fields are left untouched', () => {
    const { store } = renderBar()
    fireEvent.blur(field('Min'))
    expect(store.get(colourMapChoiceAtom).range).toBeNull()
  })

  it('rescales back to the data range: the custom range and any message go', () => {
    const harness = storeWithEngine()
    harness.store.set(colourMapChoiceAtom, {
      ...harness.store.get(colourMapChoiceAtom),
      range: { min: 1, max: 9 },
    })
    renderBar(harness)
    fireEvent.change(field('Min'), { target: { value: 'abc' } })
    fireEvent.blur(field('Min'))
    expect(screen.getByRole('alert')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Rescale' }))
    expect(harness.store.get(colourMapChoiceAtom).range).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(field('Min').value).toBe('0')
  })

  it('picks one of the 7 schemes from swatches drawn with the GPU table, rainbow first selected', () => {
    const { store } = renderBar()
    fireEvent.click(screen.getByRole('button', { name: 'Colour scheme' }))
    const options = within(screen.getByRole('listbox', { name: 'Colour schemes' })).getAllByRole(
      'option',
    )
    expect(options.map((option) => option.textContent)).toEqual(COLOUR_SCHEMES.map(schemeLabel))
    expect(
      options.find((option) => option.getAttribute('aria-selected') === 'true')?.textContent,
    ).toBe('Rainbow')
    fireEvent.click(screen.getByRole('option', { name: 'Diverging' }))
    expect(store.get(colourMapChoiceAtom).scheme).toBe('diverging')
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(screen.getByTestId('colour-map-gradient').getAttribute('data-scheme')).toBe('diverging')
  })

  it('opens the scheme list on the chosen scheme and picks with the arrow keys and Enter', () => {
    const { store } = renderBar()
    fireEvent.click(screen.getByRole('button', { name: 'Colour scheme' }))
    expect(document.activeElement?.textContent).toBe('Rainbow')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    expect(document.activeElement?.textContent).toBe('Binary')
    fireEvent.keyDown(document.activeElement!, { key: 'Home' })
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    expect(document.activeElement?.textContent).toBe('Blue brightness')
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' })
    expect(store.get(colourMapChoiceAtom).scheme).toBe('blueBrightness')
    expect(screen.queryByRole('listbox')).toBeNull()
  })

  it('draws stepped schemes with hard bands and smooth ones through their stops', () => {
    expect(schemeGradient('rainbow')).toBe(
      'linear-gradient(90deg, rgb(0, 0, 255) 0%, rgb(0, 255, 255) 25%, rgb(0, 255, 0) 50%, rgb(255, 255, 0) 75%, rgb(255, 0, 0) 100%)',
    )
    expect(schemeGradient('binary')).toBe(
      'linear-gradient(90deg, rgb(45, 105, 178) 0% 50%, rgb(214, 66, 101) 50% 100%)',
    )
  })

  it('shows the colour map status of the shown output', () => {
    const harness = storeWithEngine()
    harness.setSnapshot({ colourStatus: COLOUR_MAP_STATUS.notAvailable('Pressure') })
    renderBar(harness)
    expect(screen.getByRole('status').textContent).toBe(
      'Pressure is not available for this output.',
    )
  })

  it('collapses to the bar with its ends, and hides behind a button that brings it back', () => {
    renderBar()
    fireEvent.click(screen.getByRole('button', { name: 'Collapse colour map' }))
    expect(screen.queryByLabelText('Min')).toBeNull()
    expect(screen.getByTestId('colour-map-min').textContent).toBe('0')
    expect(screen.getByTestId('colour-map-max').textContent).toBe('2 m/s')
    fireEvent.click(screen.getByRole('button', { name: 'Expand colour map' }))
    expect(screen.getByLabelText('Min')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Hide colour map' }))
    expect(screen.queryByRole('region', { name: 'Colour map' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Show colour map' }))
    expect(screen.getByRole('region', { name: 'Colour map' })).toBeTruthy()
  })
})
