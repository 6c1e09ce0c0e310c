import { useLocation, useNavigate } from 'react-router';

/** The open item, a way to open or close it, and the address that opens a given item. */
export type UrlSelection = [
  selected: string | null,
  select: (value: string | null) => void,
  hrefOf: (value: string) => string,
];

/**
 * A page's open item (a workflow, an action type) kept in the address under `name`, so a
 * drill-down from another page opens it and the address is a link to it. Opening and
 * closing are history entries (Back closes what was opened).
 */
export function useUrlSelection(name: string): UrlSelection {
  const location = useLocation();
  const navigate = useNavigate();
  const selected = new URLSearchParams(location.search).get(name) || null;
  const searchWith = (value: string | null) => {
    const params = new URLSearchParams(location.search);
    if (value) {
      params.set(name, value);
    } else {
      params.delete(name);
    }
    const search = params.toString().replaceAll('%2C', ',');
    return search ? `?${search}` : '';
  };
  const select = (value: string | null) => {
    void navigate({ pathname: location.pathname, search: searchWith(value) });
  };
  const hrefOf = (value: string) => `${location.pathname}${searchWith(value)}`;
  return [selected, select, hrefOf];
}
