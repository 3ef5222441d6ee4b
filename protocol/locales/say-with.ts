import type { TFunction } from 'i18next';
import type { Said, SaidKey } from '../said';
import { wordsOf } from '../said';

/** Something the core said, in the words of a translator's language (any of its namespaces). */
export function sayWith(
  t: TFunction<'shell'> | TFunction<'app'> | TFunction<'cli'>,
): (saying: Said) => string {
  const lookup = t as unknown as (key: SaidKey, options: object) => string;
  return (saying) => wordsOf((key, values) => lookup(key, { ...values, ns: 'said' }), saying);
}
