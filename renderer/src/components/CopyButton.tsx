import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const SAID_FOR_MS = 2000;

/** Copies a value and says so on the button itself ("Copied"), or that it could not. */
export function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), SAID_FOR_MS);
    return () => clearTimeout(timer);
  }, [outcome]);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setOutcome('copied'),
      () => setOutcome('failed'),
    );
  return (
    <button type="button" className="copy" onClick={() => void copy()} aria-live="polite">
      {outcome === 'copied'
        ? t('details.copied')
        : outcome === 'failed'
          ? t('details.copyFailed')
          : t('details.copy')}
    </button>
  );
}
