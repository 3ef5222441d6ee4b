import type { KeyboardEvent } from 'react';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { isRemovable } from '../../../protocol/states';
import type { RowView } from '../../../protocol/views';
import { saveCertificate, showFileInFolder } from '../actions';
import { desk } from '../store';

export interface RowMenuAt {
  row: RowView;
  /** Where the pointer was, or the row's name for the keyboard's menu key. */
  x: number;
  y: number;
}

const MENU_WIDTH = 260;

/**
 * A row's context menu (right click, the menu key, Shift+F10): what a person does with one
 * certification, each also reachable in its details. Arrow keys move, Escape closes.
 */
export function RowMenu({ at, onClose }: { at: RowMenuAt; onClose(): void }) {
  const { t } = useTranslation();
  const menu = useRef<HTMLDivElement>(null);
  const { row } = at;
  const items: { label: string; act(): void }[] = [
    { label: t('rowMenu.details'), act: () => desk.set({ openId: row.id }) },
    { label: t('rowMenu.showInFolder'), act: () => showFileInFolder(row.id) },
    ...(row.state === 'anchored'
      ? [{ label: t('rowMenu.saveCertificate'), act: () => void saveCertificate(row) }]
      : []),
    { label: t('rowMenu.verify'), act: () => desk.set({ verifying: [row.filePath] }) },
    ...(isRemovable(row)
      ? [
          {
            label: t('rowMenu.remove'),
            act: () =>
              desk.set({ selected: new Map([[row.id, row]]), allShown: false, confirmingRemoval: true }),
          },
        ]
      : []),
  ];

  useEffect(() => {
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const outside = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener('mousedown', outside);
    window.addEventListener('blur', onClose);
    return () => {
      document.removeEventListener('mousedown', outside);
      window.removeEventListener('blur', onClose);
    };
  }, [onClose]);

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const entries = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = entries.indexOf(document.activeElement as HTMLElement);
    const next = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: entries.length - 1 }[event.key];
    if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      onClose();
    } else if (next !== undefined) {
      event.preventDefault();
      entries.at(next % entries.length)?.focus();
    }
  };

  return createPortal(
    <div
      ref={menu}
      className="row-menu"
      role="menu"
      aria-label={t('rowMenu.label', { name: row.fileName })}
      onKeyDown={move}
      style={{
        left: Math.max(8, Math.min(at.x, window.innerWidth - MENU_WIDTH - 8)),
        top: Math.max(8, Math.min(at.y, window.innerHeight - 44 * items.length - 16)),
        width: MENU_WIDTH,
      }}
    >
      {items.map(({ label, act }) => (
        <button
          key={label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          onClick={() => {
            onClose();
            act();
          }}
        >
          {label}
        </button>
      ))}
    </div>,
    document.body,
  );
}
