import type { SlideImages } from '../../app/onboarding';
import de2 from '../../assets/onboarding/de/slide-2.svg';
import de3 from '../../assets/onboarding/de/slide-3.svg';
import de4 from '../../assets/onboarding/de/slide-4.svg';
import de5 from '../../assets/onboarding/de/slide-5.svg';
import en2 from '../../assets/onboarding/en/slide-2.svg';
import en3 from '../../assets/onboarding/en/slide-3.svg';
import en4 from '../../assets/onboarding/en/slide-4.svg';
import en5 from '../../assets/onboarding/en/slide-5.svg';

/** Images of slides 2 to 5 per language, bundled (no CDN). */
export const ONBOARDING_IMAGES: SlideImages = [
  { en: en2, de: de2 },
  { en: en3, de: de3 },
  { en: en4, de: de4 },
  { en: en5, de: de5 },
];
