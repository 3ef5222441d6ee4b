/**
 * The filters a checked set offers, problems first, for the set both the app and verify.html check
 * in their tests (two verified, one changed, one not certified): the two must say the same.
 */
export const FILTERS_OF_THE_SET = [
  'All (4)',
  'Changed (1)',
  'Missing (0)',
  'Unreadable (0)',
  'Not certified (1)',
  'Renamed (0)',
  'Certified, key not trusted (0)',
  'Verified (2)',
];
