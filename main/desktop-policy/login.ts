/** Given to the app when Windows starts it at login (macOS says so itself): start in the tray. */
export const AT_LOGIN_ARG = '--at-login';

/** `--cli` and what follows it: the installed app run as the command line; null for the app itself. */
export function commandLineArgs(argv: readonly string[]): string[] | null {
  const at = argv.indexOf('--cli');
  return at < 0 ? null : argv.slice(at + 1);
}
