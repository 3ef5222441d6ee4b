import type { PathProblem } from '../../../protocol/views';

export interface NoticeContent {
  text: string;
  problems: PathProblem[];
  /** Goes by itself once nothing waits to be sent or anchored. */
  untilSettled?: boolean;
}

/** What just happened to a batch or a verification, with every file that could not be taken and why. */
export function Notice({ notice, onDismiss }: { notice: NoticeContent; onDismiss(): void }) {
  return (
    <div className="notice" role="status">
      <p>{notice.text}</p>
      {notice.problems.length > 0 && (
        <ul>
          {notice.problems.map((problem) => (
            <li key={problem.path}>
              <strong>{problem.path.split(/[\\/]/).at(-1)}</strong>: {problem.message}
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
