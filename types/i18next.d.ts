import 'i18next';
import type { en } from '../protocol/locales/en';

// Keys are checked at compile time: t('no.such.key') does not build.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'app';
    resources: typeof en;
  }
}
