import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

/** The question before chosen certifications are removed: which go, which stay, and that it is recorded. */
export function RemoveChosenDialog({ onRemove, onKeep }: { onRemove(): void; onKeep(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('selection.removeQuestion')} onClose={onKeep}>
      <p>{t('selection.removeExplain')}</p>
      <div className="actions">
        <button type="button" onClick={onKeep} autoFocus>
          {t('selection.keep')}
        </button>
        <button type="button" className="danger" onClick={onRemove}>
          {t('selection.confirmRemove')}
        </button>
      </div>
    </Dialog>
  );
}
