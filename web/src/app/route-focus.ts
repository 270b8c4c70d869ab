import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * After a navigation, focus moves to the new page's heading, so a screen reader announces where
 * the user landed and the next Tab starts from the page, not from the link that was clicked.
 * The first page load keeps the browser's own start.
 */
export const useRouteFocus = () => {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // A page may render its heading a frame later (a guard redirecting, data arriving).
    let tries = 0;
    let frame = 0;
    const focusHeading = () => {
      const heading = document.querySelector<HTMLElement>('#content h1');
      if (!heading) {
        if ((tries += 1) < 30) frame = requestAnimationFrame(focusHeading);
        return;
      }
      // A dialog opened meanwhile keeps its focus.
      if (document.activeElement?.closest('dialog')) return;
      heading.tabIndex = -1;
      heading.focus();
    };
    frame = requestAnimationFrame(focusHeading);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
};
