import { useTranslation } from 'react-i18next';
import type { RowView } from '../../../protocol/views';

/**
 * What can be done with the chosen certifications (rows ticked, or all the list shows): their
 * evidence, their register, sending the failed ones again, removing those never anchored.
 */
export function SelectionBar({
  selected,
  allShown,
  onSaveEvidence,
  onExportRegister,
  onSendAgain,
  onRemove,
  onClear,
}: {
  selected: ReadonlyMap<number, RowView>;
  allShown: boolean;
  onSaveEvidence(): void;
  onExportRegister(): void;
  onSendAgain(): void;
  onRemove(): void;
  onClear(): void;
}) {
  const { t } = useTranslation();
  const failed = [...selected.values()].filter((row) => row.state === 'failed').length;
  return (
    <div className="selection-bar" role="region" aria-label={t('selection.region')}>
      <strong>{allShown ? t('selection.allShown') : t('selection.chosen', { count: selected.size })}</strong>
      <button type="button" onClick={onSaveEvidence}>
        {t('selection.saveEvidence')}
      </button>
      <button type="button" onClick={onExportRegister}>
        {t('selection.exportRegister')}
      </button>
      {failed > 0 && (
        <button type="button" onClick={onSendAgain}>
          {t('selection.sendAgain', { count: failed })}
        </button>
      )}
      <button type="button" onClick={onRemove}>
        {t('selection.remove')}
      </button>
      <button type="button" onClick={onClear}>
        {t('selection.clear')}
      </button>
    </div>
  );
}
