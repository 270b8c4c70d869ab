import { useState } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import { createRouter } from './router.tsx';
import { makeStore } from './store.ts';

/** The store and the router; both made once per app instance. */
export const AppProvider = () => {
  const [store] = useState(makeStore);
  const [router] = useState(createRouter);
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  );
};
