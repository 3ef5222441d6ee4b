/** Given to the app when Windows starts it at login (macOS says so itself): start in the tray. */
export const AT_LOGIN_ARG = '--at-login';
