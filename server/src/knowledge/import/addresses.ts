/**
 * Which network addresses an import may connect to. Tenant-supplied URLs are untrusted: unless the
 * operator allows private hosts (`AI_CHAT_IMPORT_ALLOW_PRIVATE_HOSTS=1`, or a list of CIDR ranges), only public unicast
 * addresses are reached — never loopback, private, link-local (cloud metadata), CGNAT, multicast or
 * reserved ranges, nor IPv6 forms that embed one (mapped, IPv4-compatible, 6to4, Teredo). The check runs on the
 * address DNS resolved at connect time (`guardedLookup`), so a name that resolves to a public
 * address when the URL is accepted and to a private one later (DNS rebinding) is still refused.
 */
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ImportIssueError } from './issue.ts';

/** Which non-public addresses the operator allows: all (`true`), none (`false`) or these CIDR ranges. */
export type PrivateHosts = boolean | string[];

/**
 * `::/96`: the deprecated IPv4-compatible form (`[::127.0.0.1]`, which URLs normalise to `[::7f00:1]`).
 * Node's `BlockList` reads the address as the socket will; ipaddr.js takes `::a.b.c.d` for a mapped one.
 */
const IPV4_COMPATIBLE = new BlockList();
IPV4_COMPATIBLE.addSubnet('::', 96, 'ipv6');

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // ipaddr.js files the IPv4-compatible block under unicast, yet it embeds any IPv4 address and is no
  // public host's address: none of it is reached.
  if (isIP(address) === 6 && IPV4_COMPATIBLE.check(address, 'ipv6')) return false;
  // `process` turns an IPv4-mapped IPv6 address back into IPv4, so ::ffff:127.0.0.1 is loopback.
  return ipaddr.process(address).range() === 'unicast';
}

export function isAllowedAddress(address: string, allowed: PrivateHosts): boolean {
  if (allowed === true) return true;
  if (isPublicAddress(address)) return true;
  if (allowed === false || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return allowed.some((range) => {
    const [network, bits] = ipaddr.parseCIDR(range);
    return network.kind() === parsed.kind() && parsed.match(network, bits);
  });
}

/** A valid CIDR range (`10.0.0.0/8`, `127.0.0.1/32`, `fd00::/8`)? */
export function isCidr(range: string): boolean {
  try {
    ipaddr.parseCIDR(range);
    return true;
  } catch {
    return false;
  }
}

function refused(host: string, address: string): ImportIssueError {
  return new ImportIssueError('private_address', `${host} resolves to ${address}, a private or reserved address; imports read public hosts only.`);
}

/** A host written as an IP literal is never looked up: check it before connecting. */
export function assertAllowedLiteral(hostname: string, allowed: PrivateHosts): void {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) && !isAllowedAddress(bare, allowed)) throw refused(hostname, bare);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for `http.request`: resolves like `dns.lookup`, then keeps only allowed addresses. */
export function guardedLookup(allowed: PrivateHosts) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const usable = addresses.filter((a) => isAllowedAddress(a.address, allowed));
      const first = usable[0];
      if (!first) return callback(refused(hostname, addresses[0]?.address ?? 'no address') as NodeJS.ErrnoException, []);
      if (options.all) callback(null, usable);
      else callback(null, first.address, first.family);
    });
  };
}
