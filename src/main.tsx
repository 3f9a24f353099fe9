import { QueryClientProvider } from '@tanstack/react-query'
import { Provider as JotaiProvider } from 'jotai'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { setLoginRequiredHandler } from './api/index.ts'
import { createQueryClient } from './queries/queryClient.ts'
import { createAppRouter } from './routes/router.tsx'
import { loginPathFor } from './routes/RequireAuth.tsx'
import { appStore } from './state/store.ts'
import './styles.css'

const queryClient = createQueryClient()
const router = createAppRouter()

const PUBLIC_PATHS = ['/login', '/logout', '/unauthorized']

// A refused token refresh: the session is over, so start again at the login page.
setLoginRequiredHandler(() => {
  const { pathname, search } = router.state.location
  if (PUBLIC_PATHS.includes(pathname)) return
  queryClient.clear()
  void router.navigate(loginPathFor({ pathname, search }), { replace: true })
})

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')

createRoot(container).render(
  <StrictMode>
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </JotaiProvider>
  </StrictMode>,
)
