import { useTranslation } from 'react-i18next';
import { useDesk } from '../store';

/** Which watched folder a row came from, by the folder's name; its whole path on hover. */
export function WatchedFrom({ folderId }: { folderId: number | null }) {
  const { t } = useTranslation();
  const folder = useDesk((state) => state.folders?.find((candidate) => candidate.id === folderId));
  if (folderId === null || !folder) return null;
  const name = folder.path.split(/[\\/]/).filter(Boolean).at(-1) ?? folder.path;
  return (
    <span className="watched-from" title={t('watch.fromFolderTitle', { path: folder.path })}>
      {t('watch.fromFolder', { name })}
    </span>
  );
}
