/** Cancel and Add / Save of the sensor and volume clip dialogs; Save waits while saving or invalid. */
export function EditDialogFooter({
  mode,
  saving,
  invalid,
  onCancel,
}: {
  mode: 'add' | 'edit'
  saving: boolean
  /** The form was submitted with problems: nothing to save until they are fixed. */
  invalid: boolean
  onCancel: () => void
}) {
  return (
    <>
      <button type="button" className="button button--secondary" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button button--primary" disabled={saving || invalid}>
        {saving ? 'Saving...' : mode === 'add' ? 'Add' : 'Save'}
      </button>
    </>
  )
}
