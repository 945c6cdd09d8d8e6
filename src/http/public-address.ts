// Which IP addresses a server-side fetch may connect to: public unicast ones only. Everything with a
// special purpose (loopback, private, link-local such as the cloud metadata address 169.254.169.254,
// multicast, carrier-grade NAT, reserved…) could reach the server's own network, so it is refused.
import ipaddr from "ipaddr.js";

const described: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address",
  multicast: "a multicast address",
  uniqueLocal: "a unique local address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  carrierGradeNat: "a carrier-grade NAT address",
  reserved: "a reserved address",
};

// IANA hands out global IPv6 unicast from 2000::/3 only. ipaddr.js calls any address outside its named
// ranges "unicast", which would let through e.g. the deprecated IPv4-compatible ::127.0.0.1.
const globalUnicastV6 = ipaddr.parseCIDR("2000::/3");

/**
 * Why `address` must not be connected to ("a loopback address"), or undefined when it is public.
 * IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it maps to.
 */
export function nonPublicReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return "not an IP address";
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range !== "unicast") return described[range] ?? `a special-purpose address (${range})`;
  if (ip.kind() === "ipv6" && !ip.match(globalUnicastV6)) return described.reserved;
  return undefined;
}
