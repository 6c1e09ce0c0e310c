import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A list row's way into its drill-down: a real link, so keyboards and screen readers find
 * it and it opens in a new tab; the row around it is clickable for the pointer too.
 */
export function DrillLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} fw={500} size="sm" data-testid="drill-link">
      {children}
    </Anchor>
  );
}
