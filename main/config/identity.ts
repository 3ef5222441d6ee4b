import { hostname, userInfo } from 'node:os';

/** Who is certifying, and on which computer: recorded with each certification for the custody register. */
export interface Identity {
  user: string | null;
  computer: string | null;
  /** The person, as they wrote their name and firm once (Settings); the login above stays beside it. */
  name?: string | null;
  firm?: string | null;
}

export function currentIdentity(): Identity {
  let user: string | null;
  try {
    user = userInfo().username;
  } catch {
    // Some sandboxed or container accounts have no entry in the user database.
    user = process.env.USER ?? process.env.USERNAME ?? null;
  }
  return { user, computer: hostname() || null };
}
