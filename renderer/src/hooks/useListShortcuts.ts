import { useEffect, useRef } from 'react';

const mac = navigator.platform.toLowerCase().startsWith('mac');

/** Typing in a field, or a dialog open: the keys are theirs, not the list's. */
const keysBelongElsewhere = (target: EventTarget | null) =>
  document.querySelector('dialog[open]') !== null ||
  (target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)));

/**
 * What a desktop user reaches for in a list: Ctrl/Cmd+F to search, Ctrl/Cmd+A to choose all it
 * shows, and Delete (Backspace on a Mac keyboard) to remove what is chosen, after the question.
 */
export function useListShortcuts(actions: { search(): void; chooseAll(): void; remove(): void }): void {
  const current = useRef(actions);
  current.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const command = mac ? event.metaKey : event.ctrlKey;
      const key = event.key.toLowerCase();
      if (command && key === 'f' && document.querySelector('dialog[open]') === null) {
        event.preventDefault();
        current.current.search();
      } else if (keysBelongElsewhere(event.target)) {
        return;
      } else if (command && key === 'a') {
        event.preventDefault();
        current.current.chooseAll();
      } else if (!command && (key === 'delete' || key === 'backspace')) {
        event.preventDefault();
        current.current.remove();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
