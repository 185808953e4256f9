import { networkInterfaces } from 'node:os';

/** One allowed `Host`: a name or address (lower case, IPv6 in brackets) and a port; no port: any port. */
export interface HostEntry {
  name: string;
  port?: number;
}

const NAME = /^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/**
 * Reads `host`, `host:port`, `[v6]` or `[v6]:port` as a `Host` header or an
 * `--allowed-host` value writes it (a bare IPv6 address is taken too); undefined when
 * it is not one.
 */
export function parseHostPort(text: string): HostEntry | undefined {
  const value = text.trim().toLowerCase();
  let name = value;
  let port: number | undefined;
  const colon = value.lastIndexOf(':');
  if (value.startsWith('[') ? colon > value.indexOf(']') : colon !== -1 && value.indexOf(':') === colon) {
    const digits = value.slice(colon + 1);
    if (!/^\d{1,5}$/.test(digits)) return undefined;
    port = Number(digits);
    if (port < 1 || port > 65535) return undefined;
    name = value.slice(0, colon);
  } else if (!value.startsWith('[') && value.includes(':')) {
    name = `[${value}]`; // a bare IPv6 address
  }
  if (!NAME.test(name) && !IPV6.test(name)) return undefined;
  return port === undefined ? { name } : { name, port };
}

/** How an entry is written back (`name` or `name:port`). */
export function formatHostEntry(entry: HostEntry): string {
  return entry.port === undefined ? entry.name : `${entry.name}:${entry.port}`;
}

/** The loopback names a server answers to when nothing else is said: `localhost`, `127.0.0.1` and `[::1]`, on any port. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The `Host` values a server answers to, and so the origins its own pages
 * have. A request whose `Host` is not one of them is refused: a page of
 * another site that makes its name resolve to this machine (DNS rebinding)
 * still sends its own name.
 */
export class AllowedHosts {
  private readonly entries: HostEntry[];

  /** @param hosts `host` or `host:port` values; a value that is neither throws a `RangeError`. */
  constructor(hosts: readonly string[]) {
    this.entries = hosts.map((host) => {
      const entry = parseHostPort(host);
      if (!entry) throw new RangeError(`not a host or host:port: ${JSON.stringify(host)}`);
      return entry;
    });
  }

  /** Whether a request's `Host` header names this server. A header without a port means port 80. */
  allowsHost(header: string | undefined): boolean {
    const given = header === undefined ? undefined : parseHostPort(header);
    return given !== undefined && this.allows(given.name, given.port ?? 80);
  }

  /** Whether an `Origin` (`http[s]://host[:port]`) is one of this server's own. */
  allowsOrigin(origin: string): boolean {
    const match = /^(https?):\/\/([^/?#]+)$/i.exec(origin.trim());
    if (!match) return false;
    const given = parseHostPort(match[2] as string);
    return given !== undefined && this.allows(given.name, given.port ?? (match[1]?.toLowerCase() === 'https' ? 443 : 80));
  }

  private allows(name: string, port: number): boolean {
    return this.entries.some((e) => e.name === name && (e.port === undefined || e.port === port));
  }

  /** The entries, as `host` or `host:port`. */
  list(): string[] {
    return this.entries.map(formatHostEntry);
  }
}

function hostName(address: string): string {
  const bare = address.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare.includes(':') ? `[${bare}]` : bare;
}

/** The addresses of this machine's network interfaces (what a server listening on `0.0.0.0` or `::` can be reached by). */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

/**
 * The `Host` values of a server listening on `host` (as it was asked to) at
 * `address` (as it did) and `port`: those with the port, `localhost` with
 * the port, every interface address when it listens on all of them (`0.0.0.0`,
 * `::`), and `extra` (`--allowed-host`) as given.
 */
export function serverHosts(host: string, address: string, port: number, extra: readonly string[] = []): string[] {
  const wildcard = ['0.0.0.0', '::', '[::]', ''].includes(host);
  const addresses = wildcard ? [address, ...interfaceAddresses()] : [host, address];
  const names = ['localhost', ...addresses.map(hostName)];
  return [...new Set(names.map((n) => `${n}:${port}`)), ...extra];
}
