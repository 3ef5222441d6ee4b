import { useEffect, useState } from 'react';

const ROW_HEIGHT = 44;
// In a short window (styles.css, max-height: 720px) rows are closer, so eight and more are in view.
const SHORT_WINDOW = '(max-height: 720px)';
const SHORT_ROW_HEIGHT = 36;

/** The list's row height: closer rows in a short window, so eight and more are in view. */
export function useRowHeight(): number {
  const [short, setShort] = useState(() => window.matchMedia(SHORT_WINDOW).matches);
  useEffect(() => {
    const query = window.matchMedia(SHORT_WINDOW);
    const follow = () => setShort(query.matches);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  return short ? SHORT_ROW_HEIGHT : ROW_HEIGHT;
}
