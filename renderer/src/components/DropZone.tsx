import type { ReactNode } from 'react';
import { useState } from 'react';
import { pathForFile } from '../calls/verify';

/** Absolute paths of picked or dropped files, through the preload (the renderer never reads files). */
export const pathsOf = (files: FileList | null): string[] =>
  Array.from(files ?? [])
    .map(pathForFile)
    .filter(Boolean);

/** The whole window takes dropped documents and folders. */
export function DropZone({ onPaths, children }: { onPaths(paths: string[]): void; children: ReactNode }) {
  const [dragging, setDragging] = useState(false);
  return (
    <div
      className={`app ${dragging ? 'dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => event.currentTarget === event.target && setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        const paths = pathsOf(event.dataTransfer.files);
        if (paths.length) onPaths(paths);
      }}
      data-testid="drop-zone"
    >
      {children}
    </div>
  );
}
