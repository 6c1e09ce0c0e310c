import { type ReactNode, useEffect, useRef } from 'react';

/**
 * Scrolls its content into view when it appears: a drill-down opened by a link or a chart
 * lies below the page's table, out of sight.
 */
export function ShownOnOpen({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Optional: jsdom has no layout and no scrollIntoView.
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return <div ref={ref}>{children}</div>;
}
