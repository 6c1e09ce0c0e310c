import { Progress, type ProgressRootProps } from '@mantine/core';

interface ProgressBarProps extends Omit<ProgressRootProps, 'children'> {
  /** 0 to 100. */
  value: number;
  /** What the bar measures and how far it is, in the user's language ("Slide 2 of 5"). */
  label: string;
  color?: string;
  animated?: boolean;
}

/**
 * A progress bar whose accessible name and value text are the given label: Mantine's
 * `Progress` names its progressbar "40%" whatever the language, and its label would sit on
 * the wrapper, not on the progressbar.
 */
export function ProgressBar({ value, label, color, animated, ...root }: ProgressBarProps) {
  const rounded = Math.round(value);
  return (
    <Progress.Root {...root}>
      <Progress.Section
        value={value}
        color={color}
        animated={animated}
        withAria={false}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={rounded}
        aria-valuetext={label}
      />
    </Progress.Root>
  );
}
