import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SetReportView, SetVerdict } from '../../../protocol/sets';
import { SET_VERDICTS } from '../../../protocol/sets';
import { useFormat, useSay } from '../i18n';

/**
 * A checked set's lines, problems first: a filter per verdict with its count, and the lines of the
 * one chosen. The window holds the first lines of each verdict (SetReportView); the counts are the report's.
 */
export function SetResultLines({ report }: { report: SetReportView }) {
  const { t } = useTranslation();
  const say = useSay();
  const format = useFormat();
  const [shown, setShown] = useState<SetVerdict | 'all'>('all');
  const { summary } = report;
  const lines = report.results
    .filter((result) => shown === 'all' || result.verdict === shown)
    .slice(0, report.linesPerVerdict);
  const allLines = summary.documents + summary.counts.missing;
  const linesInFilter = shown === 'all' ? allLines : summary.counts[shown];
  return (
    <>
      <div role="group" aria-label={t('verifySet.show')} className="set-filters">
        <button type="button" aria-pressed={shown === 'all'} onClick={() => setShown('all')}>
          {t('verifySet.all', { count: allLines })}
        </button>
        {SET_VERDICTS.map((verdict) => (
          <button
            key={verdict}
            type="button"
            aria-pressed={shown === verdict}
            onClick={() => setShown(verdict)}
          >
            {t(`verifySet.verdicts.${verdict}`)} ({format.number(summary.counts[verdict])})
          </button>
        ))}
      </div>
      <div className="set-results" tabIndex={0} aria-label={t('verifySet.results')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('verifySet.document')}</th>
              <th scope="col">{t('verifySet.verdict')}</th>
              <th scope="col">{t('verifySet.certification')}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((result) => (
              <tr
                key={`${result.verdict}:${result.name}:${result.entry?.where ?? ''}`}
                data-verdict={result.verdict}
              >
                <td>{result.name}</td>
                <td>{t(`verifySet.verdicts.${result.verdict}`)}</td>
                {/* The date a person cites; the service's id for whoever looks it up. */}
                <td title={result.entry?.certification?.id ?? undefined}>
                  {result.verdict === 'unreadable'
                    ? result.note && say(result.note)
                    : result.entry?.certification?.signedAt
                      ? t('verifySet.signed', {
                          when: format.long(Date.parse(result.entry.certification.signedAt)),
                        })
                      : result.entry
                        ? t('verifySet.notSigned')
                        : ''}
                  {result.note && result.verdict !== 'unreadable' ? ` (${say(result.note)})` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {linesInFilter > lines.length && (
          <p className="hint">{t('verifySet.more', { count: linesInFilter - lines.length })}</p>
        )}
      </div>
    </>
  );
}
