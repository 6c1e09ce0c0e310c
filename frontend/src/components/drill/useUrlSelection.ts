import { useLocation, useNavigate } from 'react-router';

/**
 * A page's open item (a workflow, an action type) kept in the address under `name`, so a
 * drill-down from another page opens it and the address is a link to it. Opening and
 * closing are history entries (Back closes what was opened).
 */
export function useUrlSelection(name: string): [string | null, (value: string | null) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const selected = new URLSearchParams(location.search).get(name) || null;
  const select = (value: string | null) => {
    const params = new URLSearchParams(location.search);
    if (value) {
      params.set(name, value);
    } else {
      params.delete(name);
    }
    const search = params.toString().replaceAll('%2C', ',');
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' });
  };
  return [selected, select];
}
