import { find } from 'linkifyjs';
import type { ReactNode } from 'react';

/** Only these become links: never `javascript:` or `data:`, whatever a message says. */
const safeProtocols = new Set(['http:', 'https:', 'mailto:']);

const safeHref = (href: string): string | null => {
  try {
    return safeProtocols.has(new URL(href).protocol) ? href : null;
  } catch {
    return null;
  }
};

/**
 * Message text with its web addresses and e-mail addresses as links that open in a new tab
 * (`noopener noreferrer`: the opened page gets no handle on this one). The text is put in
 * elements as text, never parsed as HTML, so a message cannot inject markup.
 */
export const LinkifiedText = ({ text }: { text: string }) => {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const link of find(text)) {
    const href = safeHref(link.href);
    if (!href) continue;
    if (link.start > at) parts.push(text.slice(at, link.start));
    parts.push(
      <a key={link.start} href={href} target="_blank" rel="noopener noreferrer">
        {link.value}
      </a>,
    );
    at = link.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
};
