import { useTranslation } from 'react-i18next';
import { dragOut } from '../actions';

/**
 * The certificate and the receipt, to drag out onto the desktop or into an email: main writes the
 * file and hands it to the system's drag and drop while the mouse is held.
 */
export function DragOut({ id }: { id: number }) {
  const { t } = useTranslation();
  const drag = (what: 'certificate' | 'receipt') => (event: React.DragEvent) => {
    event.preventDefault();
    dragOut(id, what);
  };
  return (
    <p className="drag-out">
      {t('details.dragOut')}{' '}
      <span className="drag-chip" draggable onDragStart={drag('certificate')} title={t('details.dragTitle')}>
        {t('details.dragCertificate')}
      </span>{' '}
      <span className="drag-chip" draggable onDragStart={drag('receipt')} title={t('details.dragTitle')}>
        {t('details.dragReceipt')}
      </span>
    </p>
  );
}
