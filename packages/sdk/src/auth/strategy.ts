import type { AuthHeaderSource, Transport } from '../core/transport.js';

/** What createClient needs from an auth strategy. */
export interface AuthStrategy extends AuthHeaderSource {
  /** Called once by createClient: the strategy's own calls go through the client's transport. */
  connect?(transport: Transport): void;
}
