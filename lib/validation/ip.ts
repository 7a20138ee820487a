/* eslint-disable no-bitwise -- IP addresses and CIDR masks are bit arithmetic */
// IP addresses and CIDRs as the API server parses them (no leading zeros in IPv4 octets),
// for the validators in code and the CEL ip()/cidr() library.

/** An IPv4 or IPv6 address as bytes, or undefined. */
export function parseIp(text: string): number[] | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) {
    const parts = text.split('.').map(Number);
    // Leading zeros are ambiguous (octal): the API server rejects them.
    if (parts.some((p) => p > 255) || text.split('.').some((p) => p.length > 1 && p.startsWith('0'))) return undefined;
    return parts;
  }
  if (!text.includes(':') || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (g.includes('.')) {
        const v4 = parseIp(g);
        if (!v4 || v4.length !== 4) return undefined;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) {out.push(parseInt(g, 16));} else {return undefined;}
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return undefined;
  return [...head, ...Array(halves.length === 2 ? missing : 0).fill(0), ...tail].flatMap((g) => [g >> 8, g & 255]);
}

/** A CIDR as address bytes and prefix length, or undefined. */
export function parseCidr(text: string): { bytes: number[]; prefix: number } | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const bytes = parseIp(m[1]);
  const prefix = Number(m[2]);
  if (!bytes || prefix > bytes.length * 8) return undefined;
  return { bytes, prefix };
}
