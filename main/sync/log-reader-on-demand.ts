import type { LogReader } from '../evidence/log-trust';
import type { ServiceClient } from '../service/service-client';
import { failureOf } from '../service/service-failures';

// What the log is asked when no connection could be made: the log trust says the key was not fetched.
const NO_SERVICE = failureOf(new Error('no connection to the service'));

/**
 * The service's log, read through a client made on the first question (`client` connects, or
 * answers undefined when it could not or the connection it belonged to is gone).
 */
export function logReaderOnDemand(client: () => Promise<ServiceClient | undefined>): LogReader {
  return {
    fetchLogKey: async () => (await client())?.fetchLogKey() ?? NO_SERVICE,
    fetchConsistency: async (first, second) =>
      (await client())?.fetchConsistency(first, second) ?? NO_SERVICE,
  };
}
