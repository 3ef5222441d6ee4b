import type { Ref } from 'react';

/**
 * A file or folder picker without its own face: a button elsewhere opens it (ref.current.click()),
 * with the words and focus of that button. `folder` picks a whole folder (its files, with their
 * paths below it).
 */
export function HiddenPicker({
  ref,
  folder = false,
  multiple = false,
  accept,
  testId,
  onPick,
}: {
  ref: Ref<HTMLInputElement>;
  folder?: boolean;
  multiple?: boolean;
  accept?: string;
  testId?: string;
  onPick(files: FileList | null): void;
}) {
  return (
    <input
      ref={ref}
      type="file"
      hidden
      aria-hidden="true"
      multiple={multiple}
      accept={accept}
      data-testid={testId}
      {...(folder ? { webkitdirectory: '' } : {})}
      onChange={(event) => onPick(event.target.files)}
    />
  );
}
