import {
  createBrowserRouter,
  Navigate,
  Outlet,
  ScrollRestoration,
  type RouteObject,
} from 'react-router'
import { LoadingBlock } from '../components/Spinner.tsx'
import { Toasts } from '../components/Toasts.tsx'
import { ErrorPage } from '../pages/ErrorPage.tsx'
import { LoginPage } from '../pages/LoginPage.tsx'
import { LogoutPage } from '../pages/LogoutPage.tsx'
import { NotFoundPage } from '../pages/NotFoundPage.tsx'
import { UnauthorizedPage } from '../pages/UnauthorizedPage.tsx'
import { RequireAuth } from './RequireAuth.tsx'

/*
 * Code split by route (issue 23 item 4): the pages behind the login load when a route first needs
 * them, so the login page's scripts hold no chart.js, results engine or dashboard grid. The router
 * waits for a page's chunk before it shows the route (no blank frame); the small public pages stay
 * in the entry chunk. tests/integration/routeSplit.test.ts checks the built chunk graph.
 */
const lazyAppShell = () =>
  import('../components/shell/AppShell.tsx').then((m) => ({ Component: m.AppShell }))
const lazyProjectsPage = () =>
  import('../pages/projects/ProjectsPage.tsx').then((m) => ({ Component: m.ProjectsPage }))
const lazySettingsPage = () =>
  import('../pages/SettingsPage.tsx').then((m) => ({ Component: m.SettingsPage }))
const lazySetPasswordPage = () =>
  import('../pages/settings/SetPasswordPage.tsx').then((m) => ({ Component: m.SetPasswordPage }))
const lazySimulationLayout = () =>
  import('../pages/simulation/SimulationLayout.tsx').then((m) => ({
    Component: m.SimulationLayout,
  }))
const lazyPreprocessorPage = () =>
  import('../pages/simulation/PreprocessorPage.tsx').then((m) => ({
    Component: m.PreprocessorPage,
  }))
const lazyDashboardPage = () =>
  import('../pages/simulation/DashboardPage.tsx').then((m) => ({ Component: m.DashboardPage }))
const lazyPostprocessorPage = () =>
  import('../pages/simulation/PostprocessorPage.tsx').then((m) => ({
    Component: m.PostprocessorPage,
  }))

const lazyMachinesPage = () =>
  import('../pages/machines/MachinesPage.tsx').then((m) => ({ Component: m.MachinesPage }))
const lazyMachinePage = () =>
  import('../pages/machines/MachinePage.tsx').then((m) => ({ Component: m.MachinePage }))

/** Every page, and the toasts above them all. */
function RootLayout() {
  return (
    <>
      <Outlet />
      <Toasts />
      <ScrollRestoration />
    </>
  )
}

/** The global routes of spec/account.md §2 and the simulation routes of spec/results.md §2. */
export const ROUTE_OBJECTS: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    // Shown while the first route's chunk loads (a cold start on a deep link).
    hydrateFallbackElement: <LoadingBlock />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/logout', element: <LogoutPage /> },
      { path: '/unauthorized', element: <UnauthorizedPage /> },
      { path: '/set-password', lazy: lazySetPasswordPage },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: lazyAppShell,
            children: [
              { index: true, element: <Navigate to="/projects" replace /> },
              { path: 'projects', lazy: lazyProjectsPage },
              { path: 'machines', lazy: lazyMachinesPage },
              { path: 'machines/:id', lazy: lazyMachinePage },
              { path: 'settings/*', lazy: lazySettingsPage },
              {
                path: 'simulation/:id',
                lazy: lazySimulationLayout,
                children: [
                  { index: true, element: <NotFoundPage /> },
                  { path: 'preprocessor', lazy: lazyPreprocessorPage },
                  { path: 'dashboard', lazy: lazyDashboardPage },
                  { path: 'postprocessor', lazy: lazyPostprocessorPage },
                  { path: '*', element: <NotFoundPage /> },
                ],
              },
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
]

export function createAppRouter() {
  return createBrowserRouter(ROUTE_OBJECTS)
}
