import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// The desktop issue builds the screens; until then the shell shows what the product is.
function App() {
  return (
    <main>
      <h1>Evidence Desk</h1>
      <p>Certify documents by their SHA-256 hash. Your files never leave this computer.</p>
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
