import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VehicleAdmin } from '../../api/adminTypes';
import { createI18n } from '../../i18n';
import { VehicleDialog } from './VehicleDialog';

afterEach(() => {
  vi.unstubAllGlobals();
});

const VEHICLE: VehicleAdmin = {
  id: 3,
  name: 'AGV-03',
  manufacturer: 'Sim',
  serialNumber: 'AGV-03',
  model: null,
  siteId: 1,
  siteName: 'Werk Nord',
  organizationId: 1,
  protocolVersion: '2.0.0',
  batteryCapacityWh: 48_000,
};

function renderDialog(language: 'en' | 'de' = 'en', vehicle: VehicleAdmin = VEHICLE) {
  createI18n(language);
  // Nothing may reach the server while the capacity is invalid.
  const fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <VehicleDialog vehicle={vehicle} sites={[]} onClose={() => {}} onSaved={() => {}} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  const input = screen.getByTestId('vehicle-capacity') as HTMLInputElement;
  return { input, save: screen.getByTestId('vehicle-save'), fetchMock };
}

/** Types into the emptied field, as a user does, and leaves it (where clamping happened). */
async function typeCapacity(input: HTMLInputElement, text: string) {
  const user = userEvent.setup();
  await user.clear(input);
  if (text) await user.type(input, text);
  fireEvent.blur(input);
}

describe('vehicle dialog: battery capacity', () => {
  it.each([
    ['0', '0 Wh', 'must be greater than 0 Wh'],
    ['-5', '-5 Wh', 'must be greater than 0 Wh'],
    ['10000001', '10000001 Wh', 'must be at most 10,000,000 Wh'],
  ])('keeps %s as typed, says why it is refused and disables Save', async (typed, shown, why) => {
    const { input, save, fetchMock } = renderDialog();
    await typeCapacity(input, typed);
    expect(input).toHaveValue(shown);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(why));
    expect(screen.getByText(why)).toBeInTheDocument();
    expect(save).toBeDisabled();
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says it in German too', async () => {
    const { input, save } = renderDialog('de');
    await typeCapacity(input, '0');
    expect(screen.getByText('muss größer als 0 Wh sein')).toBeInTheDocument();
    await typeCapacity(input, '20000000');
    expect(screen.getByText('darf höchstens 10.000.000 Wh betragen')).toBeInTheDocument();
    expect(save).toBeDisabled();
  });

  it('accepts a valid capacity and an empty field (unknown)', async () => {
    const { input, save } = renderDialog();
    await typeCapacity(input, '0.5');
    expect(input).toHaveValue('0.5 Wh');
    expect(input).not.toHaveAttribute('aria-invalid', 'true');
    expect(save).toBeEnabled();
    await typeCapacity(input, '');
    expect(save).toBeEnabled();
  });
});

describe('vehicle dialog: out of service', () => {
  /** The body of the PATCH the dialog sent, answered with the vehicle as saved. */
  async function saved(fetchMock: ReturnType<typeof vi.fn>, answer: VehicleAdmin) {
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({ status: true, msg: null, data: { vehicle: answer, job: null } }),
        {
          headers: { 'Content-Type': 'application/json' },
        },
      ),
    );
    fireEvent.click(screen.getByTestId('vehicle-save'));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    return { url, method: init.method, body: JSON.parse(String(init.body)) as unknown };
  }

  it('retires an in-service vehicle, saying what that does', async () => {
    const { save, fetchMock } = renderDialog();
    const retired = screen.getByTestId('vehicle-retired');
    expect(retired).not.toBeChecked();
    expect(retired).toHaveAccessibleDescription(
      expect.stringContaining('no tile on the statusboard'),
    );
    expect(save).toBeDisabled();
    fireEvent.click(retired);
    expect(save).toBeEnabled();
    const sent = await saved(fetchMock, { ...VEHICLE, retiredAt: '2026-11-29T03:15:00Z' });
    expect(sent).toEqual({ url: '/v2/Admin/Vehicles/3', method: 'PATCH', body: { retired: true } });
  });

  it('brings a retired vehicle back into service', async () => {
    const retiredAt = '2026-11-01T08:00:00Z';
    const { fetchMock } = renderDialog('de', { ...VEHICLE, retiredAt });
    const retired = screen.getByTestId('vehicle-retired');
    expect(retired).toBeChecked();
    expect(retired).toHaveAccessibleName(expect.stringMatching(/^Außer Dienst/));
    fireEvent.click(retired);
    const sent = await saved(fetchMock, { ...VEHICLE, retiredAt: null });
    expect(sent.body).toEqual({ retired: false });
  });
});
