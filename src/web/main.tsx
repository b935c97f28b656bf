import './app/styles/first-paint';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { appStylesApplied } from './app/app-styles';
import { Providers } from './app/providers';
import { AppRoutes, preloadRoute } from './app/router';

// A data router, for its blocker (a form with unsaved changes asks before it is left); the
// routes themselves stay declared in AppRoutes.
const router = createBrowserRouter([{ path: '*', element: <AppRoutes /> }]);

preloadRoute(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('the page has no #root element');

// The frame placeholder the server sent stays until the app's styles are in (app-styles.ts).
void appStylesApplied().then(() =>
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  ),
);
