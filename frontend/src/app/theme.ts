import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Fleetscope teal: distinct from the blues of most fleet-management tools. */
const brand: MantineColorsTuple = [
  '#e3fbf8',
  '#cdf3ee',
  '#9de6dc',
  '#69d8c9',
  '#40ccb9',
  '#27c4ae',
  '#14a994',
  '#059683',
  '#008574',
  '#007363',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  colors: { brand },
  fontFamily:
    'Inter, "Segoe UI", system-ui, -apple-system, BlinkMacSystemFont, Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
});
