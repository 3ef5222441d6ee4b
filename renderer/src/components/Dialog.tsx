import type { ReactNode } from 'react';
import { useEffect, useId, useRef } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

interface Props {
  title: ReactNode;
  onClose(): void;
  wide?: boolean;
  children: ReactNode;
}

/**
 * The one dialog every screen uses: a native modal <dialog> (the rest of the window is inert),
 * focus moved to its first field or button, Tab kept inside, Escape closes, and focus handed back
 * to whatever opened it.
 */
export function Dialog({ title, onClose, wide = false, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    const first =
      dialog.querySelector<HTMLElement>('[autofocus], input, select, textarea') ??
      dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const keepFocusInside = (event: React.KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const focusable = [...(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter(
      (element) => element.offsetParent !== null,
    );
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className={`panel${wide ? ' wide' : ''}`}
      aria-labelledby={titleId}
      onKeyDown={keepFocusInside}
      // Escape: the browser cancels the dialog; we close it our way so React stays in charge.
      onCancel={(event) => {
        event.preventDefault();
        close.current();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
