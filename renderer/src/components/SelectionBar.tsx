import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const failed = [...selected.values()].filter((row) => row.state === 'failed').length;
  return (
    <div className="selection-bar" role="region" aria-label={t('selection.region')}>
      <strong>{t('selection.chosen', { count: selected.size })}</strong>
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
      <button type="button" onClick={onClear}>
        {t('selection.clear')}
      </button>
    </div>
  );
}
