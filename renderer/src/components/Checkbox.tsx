import type { ReactNode } from 'react';

/** A checkbox with its words beside it, the whole line clickable: every yes/no choice of the window. */
export function Checkbox({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange(checked: boolean): void;
  children: ReactNode;
}) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />{' '}
      {children}
    </label>
  );
}
