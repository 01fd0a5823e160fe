/**
 * Whether a client address is loopback (127.0.0.0/8, ::1, or IPv4-mapped 127.x), via node:net's BlockList.
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
