import { Badge, CloseButton } from '@mantine/core';

/**
 * An active filter a drill-down opened a list with (a map cell, a cycle-time bucket): what it
 * keeps, and a button that clears it.
 */
export function FilterChip({
  label,
  clearLabel,
  testId,
  onClear,
}: {
  label: string;
  clearLabel: string;
  /** `testId` on the chip, `testId-clear` on its button. */
  testId: string;
  onClear: () => void;
}) {
  return (
    <Badge
      size="lg"
      variant="light"
      tt="none"
      w="fit-content"
      mb={4}
      data-testid={testId}
      rightSection={
        <CloseButton
          size="xs"
          onClick={onClear}
          aria-label={clearLabel}
          data-testid={`${testId}-clear`}
        />
      }
    >
      {label}
    </Badge>
  );
}
