/**
 * Base of every API resource: holds the transport the client hands it (openai-node's resource pattern).
 * @module
 */
import type { Transport } from './transport.js';

/** A group of endpoints sharing the client's transport. */
export abstract class APIResource {
  constructor(protected readonly transport: Transport) {}
}
