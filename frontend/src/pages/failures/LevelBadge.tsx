import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorLevel, LEVEL_BADGE_COLORS } from './levels';

/**
 * An error level as a badge ("WARNING", "CRITICAL 3"). It never shrinks below its text: a
 * narrow table column scrolls instead of cutting the level to "WAR…".
 */
export function LevelBadge({ level, children }: { level: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const known = isErrorLevel(level);
  return (
    <Badge
      size="sm"
      variant={level === 'FATAL' ? 'filled' : 'light'}
      color={known ? LEVEL_BADGE_COLORS[level] : 'gray'}
      className="fs-badge-whole"
      data-testid="level-badge"
      data-level={level}
    >
      {known ? t(`failures.level.${level}`) : level}
      {children}
    </Badge>
  );
}
