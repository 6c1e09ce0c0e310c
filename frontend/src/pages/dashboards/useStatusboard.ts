import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  loadStatusboard,
  type Statusboard,
  type StatusTileEvent,
  statusboardStreamUrl,
} from '../../api/analytics';
import type { AnalysisScope } from '../../api/analytics-processes';
import {
  applyTileEvent,
  type Board,
  boardFromSnapshot,
  reconnectDelayMs,
} from './statusboardModel';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'unsupported';

/**
 * The statusboard: first the snapshot of GET /Statusboard (through the request chain), then
 * live updates over Server-Sent Events. EventSource reconnects by itself after a dropped
 * connection (the server asks for 3 s) and the stream starts with a fresh snapshot; when
 * the browser gives up (the stream closed, e.g. a 5xx), we re-open with a backoff.
 */
export function useStatusboard(scope: AnalysisScope, enabled: boolean) {
  const vehicleKey = scope.vehicles.map((vehicle) => vehicle.id).join(',');
  const snapshot = useQuery({
    queryKey: ['analytics', 'statusboard', vehicleKey],
    queryFn: () => loadStatusboard(scope),
    enabled,
  });
  const [board, setBoard] = useState<Board | null>(null);
  const [live, setLive] = useState<LiveStatus>('connecting');
  const streamUrl = statusboardStreamUrl(scope);
  const hadStreamSnapshot = useRef(false);

  useEffect(() => {
    if (snapshot.data && !hadStreamSnapshot.current) {
      setBoard(boardFromSnapshot(snapshot.data, Date.now()));
    }
  }, [snapshot.data]);

  useEffect(() => {
    if (!enabled) {
      return;
    }
    if (typeof EventSource === 'undefined') {
      setLive('unsupported');
      return;
    }
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;

    const open = () => {
      source = new EventSource(streamUrl, { withCredentials: true });
      source.addEventListener('open', () => setLive('live'));
      source.addEventListener('snapshot', (event) => {
        const data = JSON.parse((event as MessageEvent<string>).data) as Statusboard;
        hadStreamSnapshot.current = true;
        attempt = 0;
        setBoard(boardFromSnapshot(data, Date.now()));
        setLive('live');
      });
      source.addEventListener('tile', (event) => {
        const data = JSON.parse((event as MessageEvent<string>).data) as StatusTileEvent;
        setBoard((current) => (current ? applyTileEvent(current, data) : current));
      });
      source.addEventListener('error', () => {
        setLive('reconnecting');
        if (source?.readyState === EventSource.CLOSED && !stopped) {
          source.close();
          timer = setTimeout(open, reconnectDelayMs(attempt));
          attempt += 1;
        }
      });
    };
    setLive('connecting');
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [enabled, streamUrl]);

  return { board, live, snapshot };
}

/** The current time, re-read every second (the ages on the tiles tick locally). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
