// Checks that whoever added a domain controls it: the row's token published as a DNS TXT record
// at `_bodega.<domain>`, or served at `http://<domain>/.well-known/bodega/<token>`.
import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import { ConfigError } from '../../platform/config.js';
import { isPrivateAddress } from '../../platform/addresses.js';
import type { DomainProof } from './domains.js';

export interface DomainProofOptions {
  /** Resolvers to ask (`DNS_SERVERS`, `ip` or `ip:port`); default: the system's. */
  dnsServers: string[] | undefined;
  /** Port of the well-known check (`DOMAINS_CHECK_PORT`): 80 in production, a loopback port in tests. */
  httpPort: number;
  /** Lets the well-known check reach loopback and private addresses (`DOMAINS_ALLOW_PRIVATE`; tests). */
  allowPrivate: boolean;
  timeoutMs: number;
}

export const DEFAULT_DOMAIN_PROOF: DomainProofOptions = { dnsServers: undefined, httpPort: 80, allowPrivate: false, timeoutMs: 5000 };

/** Reads DNS_SERVERS, DOMAINS_CHECK_PORT and DOMAINS_ALLOW_PRIVATE; a bad value is a ConfigError. */
export function domainProofOptionsFromEnv(env: NodeJS.ProcessEnv): Partial<DomainProofOptions> {
  const out: Partial<DomainProofOptions> = {};
  if (env.DNS_SERVERS !== undefined && env.DNS_SERVERS.trim() !== '') {
    const servers = env.DNS_SERVERS.split(',').map((s) => s.trim()).filter(Boolean);
    for (const server of servers) {
      const host = /^\[(.+)\](?::\d+)?$/.exec(server)?.[1] ?? server.replace(/:\d{1,5}$/, '');
      if (net.isIP(host) === 0) throw new ConfigError(`DNS_SERVERS must list IP addresses, each with an optional :port (got "${server}")`);
    }
    out.dnsServers = servers;
  }
  const port = env.DOMAINS_CHECK_PORT;
  if (port !== undefined && port !== '') {
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new ConfigError(`DOMAINS_CHECK_PORT must be a port from 1 to 65535 (got "${port}")`);
    out.httpPort = Number(port);
  }
  if (env.DOMAINS_ALLOW_PRIVATE !== undefined && env.DOMAINS_ALLOW_PRIVATE !== '') {
    if (!['true', 'false'].includes(env.DOMAINS_ALLOW_PRIVATE)) throw new ConfigError(`DOMAINS_ALLOW_PRIVATE must be true or false (got "${env.DOMAINS_ALLOW_PRIVATE}")`);
    out.allowPrivate = env.DOMAINS_ALLOW_PRIVATE === 'true';
  }
  return out;
}

export type ProofResult = { proof: DomainProof; problem?: undefined } | { proof?: undefined; problem: string };

/** The name of the TXT record that proves a domain. */
export function txtRecordName(domain: string): string {
  return `_bodega.${domain}`;
}

export function wellKnownPath(token: string): string {
  return `/.well-known/bodega/${token}`;
}

const MAX_BODY_BYTES = 1024;

export class DomainProver {
  private readonly resolver: dns.promises.Resolver;

  constructor(readonly options: DomainProofOptions) {
    this.resolver = new dns.promises.Resolver({ timeout: options.timeoutMs, tries: 2 });
    if (options.dnsServers?.length) this.resolver.setServers(options.dnsServers);
  }

  /** The DNS record first, then the file; the problem names what each check found. */
  async prove(domain: string, token: string): Promise<ProofResult> {
    const txt = await this.txtProblem(domain, token);
    if (!txt) return { proof: 'DNS_TXT' };
    const file = await this.wellKnownProblem(domain, token);
    if (!file) return { proof: 'WELL_KNOWN' };
    return { problem: `${txt}; ${file}` };
  }

  private async txtProblem(domain: string, token: string): Promise<string | undefined> {
    const name = txtRecordName(domain);
    try {
      const records = await this.resolver.resolveTxt(name);
      return records.some((chunks) => chunks.join('').trim() === token) ? undefined : `the TXT record ${name} does not hold the token`;
    } catch (error) {
      return `no TXT record ${name} (${errorCode(error)})`;
    }
  }

  /** Fetches the file from the domain's own address (found through the same resolver), following no redirect. */
  private async wellKnownProblem(domain: string, token: string): Promise<string | undefined> {
    const url = `http://${domain}${this.options.httpPort === 80 ? '' : `:${this.options.httpPort}`}${wellKnownPath(token)}`;
    const found = await Promise.allSettled([this.resolver.resolve4(domain), this.resolver.resolve6(domain)]);
    const addresses = found.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    if (addresses.length === 0) return `${url}: ${domain} has no address`;
    const usable = this.options.allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a));
    if (usable.length === 0) return `${url}: ${domain} resolves only to private addresses`;
    try {
      const { status, body } = await this.get(usable[0], domain, token);
      if (status !== 200) return `${url} answered ${status}`;
      return body.trim() === token ? undefined : `${url} does not hold the token`;
    } catch (error) {
      return `${url}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  private get(address: string, domain: string, token: string): Promise<{ status: number; body: string }> {
    const port = this.options.httpPort;
    return new Promise((resolve, reject) => {
      const req = http.request({
        host: address, port, path: wellKnownPath(token), method: 'GET',
        headers: { host: port === 80 ? domain : `${domain}:${port}`, 'user-agent': 'Bodega-Domain-Check/1' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY_BYTES) chunks.push(chunk);
          else res.destroy();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('close', () => resolve({ status: res.statusCode ?? 0, body: size > MAX_BODY_BYTES ? '' : Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', (error) => reject(error.name === 'AbortError' || error.name === 'TimeoutError' ? new Error(`no answer within ${this.options.timeoutMs} ms`) : error));
      req.end();
    });
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
