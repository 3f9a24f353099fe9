import { createStore } from 'jotai'

/** The app's jotai store; non-React code (the router, the API glue) writes atoms through it. */
export const appStore = createStore()
