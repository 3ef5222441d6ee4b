import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './i18n';
import { connectLiveUpdates } from './store';
import './styles.css';

// What the screens read stays as read until the change stream says the queue moved: no polling.
const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: Infinity, retry: 1, refetchOnWindowFocus: false } },
});

function LiveUpdates() {
  useEffect(() => connectLiveUpdates(queryClient), []);
  return null;
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <LiveUpdates />
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
