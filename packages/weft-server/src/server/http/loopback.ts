/**
 * Whether a client address or a `Host` header names this machine's loopback (127.0.0.0/8, ::1, `localhost`).
 * @module
 */
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * @param address - a remote address as node reports it (`127.0.0.1`, `::1`, `::ffff:127.0.0.1`, `192.0.2.7`, ...).
 * @returns true for loopback addresses; false for any other address and for text that is not an IP address.
 */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** `host[:port]` or `[ipv6][:port]`; the port, when present, is 1 to 5 digits. */
const HOST_HEADER = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+))(?::\d{1,5})?$/;

/**
 * Whether a `Host` header value names a loopback host: `localhost` or a name under `.localhost` (both resolve
 * to loopback, RFC 6761), an address in 127.0.0.0/8, or `[::1]`; each with or without a port. A name a DNS
 * rebinding attack could point at 127.0.0.1 (`evil.example`) is not loopback, whatever it resolves to.
 *
 * @param host - the header value (`127.0.0.1:8080`, `localhost`, `[::1]:8080`, ...).
 */
export function isLoopbackHost(host: string): boolean {
  const match = HOST_HEADER.exec(host.trim());
  if (!match) return false;
  if (match[1] !== undefined) return isIP(match[1]) === 6 && isLoopbackAddress(match[1]);
  const name = match[2]!.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || (isIP(name) === 4 && isLoopbackAddress(name));
}
