import { useEffect } from 'react'

/** The product name; it appears only in the page title. */
export const PRODUCT_NAME = 'Dive'

/** '{title} | Dive', or just 'Dive' without a title. */
export function pageTitle(title?: string): string {
  return title ? `${title} | ${PRODUCT_NAME}` : PRODUCT_NAME
}

/** Sets the page title; null leaves it to a child page (e.g. a not-found page inside a layout). */
export function usePageTitle(title?: string | null): void {
  useEffect(() => {
    if (title !== null) document.title = pageTitle(title)
  }, [title])
}
