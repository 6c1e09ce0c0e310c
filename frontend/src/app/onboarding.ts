import {
  type Language,
  ONBOARDING_IMAGE_MAX_HEIGHT_PX,
  ONBOARDING_SLIDE_COUNT,
} from '../constants';

/** Onboarding slides of spec section 3 and their navigation (spec section 2). Pure. */
export type SlideButtonAction = 'next' | 'done';
export type SlideLinkAction = 'skip' | 'back';

export interface SlideImage {
  sources: Record<Language, string>;
  maxHeight: number;
}

export interface OnboardingSlide {
  headlineKey: string;
  textKey: string;
  image: SlideImage | null;
  button: { textKey: string; action: SlideButtonAction };
  link: { textKey: string; action: SlideLinkAction };
}

/** Images of slides 2 to 5, per language, in slide order. */
export type SlideImages = ReadonlyArray<Record<Language, string>>;

export function buildSlides(images: SlideImages): OnboardingSlide[] {
  if (images.length !== ONBOARDING_SLIDE_COUNT - 1) {
    throw new Error(`onboarding needs ${ONBOARDING_SLIDE_COUNT - 1} images, got ${images.length}`);
  }
  return Array.from({ length: ONBOARDING_SLIDE_COUNT }, (_, index) => {
    const number = index + 1;
    const last = number === ONBOARDING_SLIDE_COUNT;
    const sources = index === 0 ? null : images[index - 1];
    return {
      headlineKey: `onboarding.slide${number}.headline`,
      textKey: `onboarding.slide${number}.text`,
      image: sources ? { sources, maxHeight: ONBOARDING_IMAGE_MAX_HEIGHT_PX } : null,
      button: last
        ? { textKey: 'onboarding.done', action: 'done' }
        : { textKey: 'onboarding.next', action: 'next' },
      link:
        index === 0
          ? { textKey: 'onboarding.skip', action: 'skip' }
          : { textKey: 'onboarding.back', action: 'back' },
    };
  });
}

export interface OnboardingPosition {
  index: number;
  finished: boolean;
}

export function stepOnboarding(
  position: OnboardingPosition,
  action: SlideButtonAction | SlideLinkAction,
): OnboardingPosition {
  switch (action) {
    case 'next':
      return { index: Math.min(position.index + 1, ONBOARDING_SLIDE_COUNT - 1), finished: false };
    case 'back':
      return { index: Math.max(position.index - 1, 0), finished: false };
    case 'skip':
    case 'done':
      return { ...position, finished: true };
  }
}
