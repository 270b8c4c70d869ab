import type { MessageView } from '@veil/contracts';
import { useEffect, useState, type RefObject } from 'react';
import { useAppSelector } from '../../../app/hooks.ts';
import { selectKeysVersion } from '../../../lib/key-backup.slice.ts';
import { decryptPreview, knownPreview } from '../previews.ts';

/** One observer for every row: rows register the callback to run when they first show. */
const whenShown = new WeakMap<Element, () => void>();
let observer: IntersectionObserver | undefined;
const sharedObserver = () =>
  (observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      whenShown.get(entry.target)?.();
      observer?.unobserve(entry.target);
    }
  }));

/** The decrypted preview of a chat's newest message, decrypted once the row comes into view. */
export const usePreview = (row: RefObject<Element | null>, message: MessageView | null, userId: string) => {
  const [text, setText] = useState(() => (message ? knownPreview(message._id) : undefined));
  // A key restored in this browser may open previews that could not be read before.
  const keysVersion = useAppSelector(selectKeysVersion);
  useEffect(() => {
    const element = row.current;
    if (!message || !element) return;
    const known = knownPreview(message._id);
    if (known !== undefined) return setText(known);
    let live = true;
    whenShown.set(element, () => void decryptPreview(message, userId).then((read) => live && setText(read)));
    const watching = sharedObserver();
    watching.observe(element);
    return () => {
      live = false;
      watching.unobserve(element);
    };
  }, [row, message, userId, keysVersion]);
  return message ? text : undefined;
};
