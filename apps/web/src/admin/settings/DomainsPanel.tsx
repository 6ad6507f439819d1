import { useState } from 'react';
import type { DomainStatus } from '@bodega/sdk';
import { Notice } from '../../ui/Notice.js';
import { useResult } from '../ui.js';
import { useVerifyDomain } from './queries.js';

const PROVEN_BY: Record<NonNullable<DomainStatus['verifiedBy']>, string> = {
  OPERATOR: 'set by the server operator',
  DNS_TXT: 'DNS record found',
  WELL_KNOWN: 'file found',
};

/** Each domain with its proof: a PENDING one shows what to publish and a button to check it now. */
export function DomainsPanel({ domains }: { domains: DomainStatus[] }) {
  if (domains.length === 0) return null;
  return (
    <section className="panel domains-panel" aria-labelledby="domains-heading">
      <h2 id="domains-heading">Domain verification</h2>
      <p className="hint">A new domain serves the shop, and sign-in may return to it, only once you prove you control it.</p>
      <ul className="domain-list">
        {domains.map((d) => <DomainItem key={d.domain} domain={d} />)}
      </ul>
    </section>
  );
}

function DomainItem({ domain }: { domain: DomainStatus }) {
  const result = useResult();
  // A check that finds nothing is an answer, not an error: say what it found.
  const [notFound, setNotFound] = useState<string | undefined>();
  const verifying = useVerifyDomain();
  const verify = () => verifying.mutate(domain.domain, {
    onSuccess: ({ domainStatus }) => {
      if (domainStatus.status === 'VERIFIED') result.ok(`${domain.domain} is verified.`);
      else setNotFound(`Not verified yet: ${domainStatus.problem ?? 'the token was not found'}.`);
    },
    onError: (error) => result.fail(error),
  });
  const verified = domain.status === 'VERIFIED';
  return (
    <li className="domain-item">
      <div className="domain-head">
        <strong>{domain.domain}</strong>
        <span className={`status ${verified ? 'status-ok' : 'status-warn'}`}>{verified ? 'Verified' : 'Pending'}</span>
        {verified && domain.verifiedBy && <span className="hint">{PROVEN_BY[domain.verifiedBy]}</span>}
      </div>
      {!verified && (
        <>
          <p>Publish this DNS TXT record:</p>
          <dl className="domain-proof">
            <dt>Name</dt><dd><code>{domain.txtRecord.name}</code></dd>
            <dt>Value</dt><dd><code>{domain.txtRecord.value}</code></dd>
          </dl>
          <p>or serve the value as the whole body of <code>{domain.wellKnownUrl}</code>, then check it.</p>
          {result.view}
          {notFound && <Notice kind="error">{notFound}</Notice>}
          <button type="button" className="button" aria-label={`Verify ${domain.domain}`} disabled={verifying.isPending} onClick={() => { result.clear(); setNotFound(undefined); verify(); }}>
            {verifying.isPending ? 'Checking…' : 'Verify'}
          </button>
        </>
      )}
      {verified && result.view}
    </li>
  );
}
