// Whether a host name is this machine: the one place plain http is allowed, and where the sandbox delivers webhooks.

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A link from the service (a report's) that may be followed: https, or plain http only to this machine. */
export function isFollowableLink(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}
