import { Outlet } from 'react-router';

/** The Administration app's frame inside the shell: its pages below /admin. */
export function AdminLayout() {
  return (
    <section data-testid="admin-app">
      <Outlet />
    </section>
  );
}
