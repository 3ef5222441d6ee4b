import type { RowView } from '../../../protocol/views';

/** What can be done with the rows chosen in the list: their evidence, their register, sending the failed ones again. */
export function SelectionBar({
  selected,
  onSaveEvidence,
  onExportRegister,
  onSendAgain,
  onClear,
}: {
  selected: ReadonlyMap<number, RowView>;
  onSaveEvidence(): void;
  onExportRegister(): void;
  onSendAgain(): void;
  onClear(): void;
}) {
  const failed = [...selected.values()].filter((row) => row.state === 'failed').length;
  return (
    <div className="selection-bar" role="region" aria-label="Chosen certifications">
      <strong>{selected.size} chosen</strong>
      <button type="button" onClick={onSaveEvidence}>
        Save their evidence…
      </button>
      <button type="button" onClick={onExportRegister}>
        Export their register…
      </button>
      {failed > 0 && (
        <button type="button" onClick={onSendAgain}>
          Send {failed} failed again
        </button>
      )}
      <button type="button" onClick={onClear}>
        Clear choice
      </button>
    </div>
  );
}
