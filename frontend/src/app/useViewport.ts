import { useEffect, useState } from 'react';

export interface Viewport {
  width: number;
  innerHeight: number;
}

function measure(): Viewport {
  return { width: window.innerWidth, innerHeight: window.innerHeight };
}

/** Window size, updated on resize and orientation change. */
export function useViewport(): Viewport {
  const [viewport, setViewport] = useState(measure);
  useEffect(() => {
    const update = () => setViewport(measure());
    window.addEventListener('resize', update);
    window.addEventListener('orientationchange', update);
    return () => {
      window.removeEventListener('resize', update);
      window.removeEventListener('orientationchange', update);
    };
  }, []);
  return viewport;
}
