import {
  createBrowserRouter,
  Navigate,
  Outlet,
  ScrollRestoration,
  type RouteObject,
} from 'react-router'
import { Toasts } from '../components/Toasts.tsx'
import { AppShell } from '../components/shell/AppShell.tsx'
import { ErrorPage } from '../pages/ErrorPage.tsx'
import { LoginPage } from '../pages/LoginPage.tsx'
import { LogoutPage } from '../pages/LogoutPage.tsx'
import { NotFoundPage } from '../pages/NotFoundPage.tsx'
import { NotYetPage } from '../pages/NotYetPage.tsx'
import { ProjectsPage } from '../pages/projects/ProjectsPage.tsx'
import { SettingsPage } from '../pages/SettingsPage.tsx'
import { SetPasswordPage } from '../pages/settings/SetPasswordPage.tsx'
import { DashboardPage } from '../pages/simulation/DashboardPage.tsx'
import { PostprocessorPage } from '../pages/simulation/PostprocessorPage.tsx'
import { PreprocessorPage } from '../pages/simulation/PreprocessorPage.tsx'
import { SimulationLayout } from '../pages/simulation/SimulationLayout.tsx'
import { UnauthorizedPage } from '../pages/UnauthorizedPage.tsx'
import { RequireAuth } from './RequireAuth.tsx'

const MACHINES_DESCRIPTION =
  'Launch remote virtual machines for post-processing and manage their storage here.'

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
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/logout', element: <LogoutPage /> },
      { path: '/unauthorized', element: <UnauthorizedPage /> },
      { path: '/set-password', element: <SetPasswordPage /> },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppShell />,
            children: [
              { index: true, element: <Navigate to="/projects" replace /> },
              { path: 'projects', element: <ProjectsPage /> },
              {
                path: 'machines',
                element: <NotYetPage title="Machines" description={MACHINES_DESCRIPTION} />,
              },
              {
                path: 'machines/:id',
                element: <NotYetPage title="Machines" description={MACHINES_DESCRIPTION} />,
              },
              { path: 'settings/*', element: <SettingsPage /> },
              {
                path: 'simulation/:id',
                element: <SimulationLayout />,
                children: [
                  { index: true, element: <NotFoundPage /> },
                  { path: 'preprocessor', element: <PreprocessorPage /> },
                  { path: 'dashboard', element: <DashboardPage /> },
                  { path: 'postprocessor', element: <PostprocessorPage /> },
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
