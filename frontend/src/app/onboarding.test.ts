import { describe, expect, it } from 'vitest';
import { buildSlides, stepOnboarding } from './onboarding';

const images = [2, 3, 4, 5].map((n) => ({ en: `en-${n}.svg`, de: `de-${n}.svg` }));

describe('onboarding slides', () => {
  const slides = buildSlides(images);

  it('has 5 slides; slide 1 text only, slides 2-5 with an image per language and a maximum height', () => {
    expect(slides).toHaveLength(5);
    expect(slides[0]?.image).toBeNull();
    for (const [index, slide] of slides.slice(1).entries()) {
      expect(slide.image?.sources).toEqual({
        en: `en-${index + 2}.svg`,
        de: `de-${index + 2}.svg`,
      });
      expect(slide.image?.maxHeight).toBeGreaterThan(0);
    }
  });

  it('has next on slides 1-4 and done on the last; skip on slide 1 and back on 2-5', () => {
    expect(slides.map((slide) => slide.button.action)).toEqual([
      'next',
      'next',
      'next',
      'next',
      'done',
    ]);
    expect(slides.map((slide) => slide.link.action)).toEqual([
      'skip',
      'back',
      'back',
      'back',
      'back',
    ]);
    expect(slides[0]?.headlineKey).toBe('onboarding.slide1.headline');
  });

  it('rejects a wrong number of images', () => {
    expect(() => buildSlides(images.slice(1))).toThrow();
  });
});

describe('stepOnboarding', () => {
  it('moves forward and back within the slides', () => {
    expect(stepOnboarding({ index: 0, finished: false }, 'next')).toEqual({
      index: 1,
      finished: false,
    });
    expect(stepOnboarding({ index: 4, finished: false }, 'next')).toEqual({
      index: 4,
      finished: false,
    });
    expect(stepOnboarding({ index: 2, finished: false }, 'back')).toEqual({
      index: 1,
      finished: false,
    });
    expect(stepOnboarding({ index: 0, finished: false }, 'back')).toEqual({
      index: 0,
      finished: false,
    });
  });

  it('finishes on skip and done', () => {
    expect(stepOnboarding({ index: 0, finished: false }, 'skip').finished).toBe(true);
    expect(stepOnboarding({ index: 4, finished: false }, 'done').finished).toBe(true);
  });
});
