import { Anchor, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { markOnboardingWatched } from '../../api/settings';
import { buildSlides, type OnboardingPosition, stepOnboarding } from '../../app/onboarding';
import { ONBOARDING_SLIDE_COUNT } from '../../constants';
import { normalizeLanguage } from '../../i18n';
import { useAppSettings, useUpdateSettingsCache } from '../filters/useAppSettings';
import { ProgressBar } from '../page/ProgressBar';
import { ONBOARDING_IMAGES } from './onboardingImages';

/** Onboarding (spec sections 2 to 4): 5 slides until watched; finishing or skipping saves it. */
export function OnboardingOverlay() {
  const { t, i18n } = useTranslation();
  const settings = useAppSettings();
  const updateSettings = useUpdateSettingsCache();
  const slides = useMemo(() => buildSlides(ONBOARDING_IMAGES), []);
  const [position, setPosition] = useState<OnboardingPosition>({ index: 0, finished: false });

  const visible =
    settings.data !== undefined && !settings.data.onboardingWatched && !position.finished;
  const slide = slides[position.index];
  if (!visible || !slide) {
    return null;
  }
  const language = normalizeLanguage(i18n.language);
  const number = position.index + 1;
  const headline = t(slide.headlineKey);

  const act = (action: 'next' | 'done' | 'skip' | 'back') => {
    const next = stepOnboarding(position, action);
    setPosition(next);
    if (next.finished) {
      updateSettings((current) => ({ ...current, onboardingWatched: true }));
      void markOnboardingWatched().catch(() => undefined);
    }
  };

  return (
    <Modal
      opened
      onClose={() => act('skip')}
      // Escape is the skip link's key, and only slide 1 has that link (spec: back on 2 to 5).
      closeOnEscape={number === 1}
      closeOnClickOutside={false}
      withCloseButton={false}
      centered
      size="xl"
      title={t('onboarding.label')}
    >
      <Stack gap="md" data-testid="onboarding-overlay">
        <Stack gap="md" data-testid={`onboarding-slide-${number}`} data-slide={number}>
          <ProgressBar
            value={(number / ONBOARDING_SLIDE_COUNT) * 100}
            size="sm"
            label={t('onboarding.progress', { current: number, total: ONBOARDING_SLIDE_COUNT })}
          />
          <Text size="xs" c="dimmed">
            {t('onboarding.progress', { current: number, total: ONBOARDING_SLIDE_COUNT })}
          </Text>
          {slide.image && (
            <img
              key={`${language}-${number}`}
              src={slide.image.sources[language]}
              alt={t('onboarding.imageAlt', { headline })}
              className="fs-onboarding-image"
              style={{ maxHeight: slide.image.maxHeight }}
              data-testid={`onboarding-image-${number}`}
              data-language={language}
            />
          )}
          <Title order={2} data-testid="onboarding-headline">
            {headline}
          </Title>
          <Text>{t(slide.textKey)}</Text>
          <Group justify="space-between" mt="sm">
            <Anchor
              component="button"
              type="button"
              onClick={() => act(slide.link.action)}
              data-testid={`onboarding-${slide.link.action}`}
            >
              {t(slide.link.textKey)}
            </Anchor>
            <Button
              onClick={() => act(slide.button.action)}
              data-testid={`onboarding-${slide.button.action}`}
            >
              {t(slide.button.textKey)}
            </Button>
          </Group>
        </Stack>
      </Stack>
    </Modal>
  );
}
