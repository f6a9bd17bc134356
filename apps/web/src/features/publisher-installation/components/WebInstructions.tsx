import { Anchor, Divider, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { WORDPRESS_PLUGIN_FILE, WORDPRESS_PLUGIN_PATH, type TGetInstallationDataResponse } from '@helium/contracts';
import type { instructionsVariant } from '../utils/installCheck.ts';
import { CodeBlock } from './CodeBlock.tsx';

/** The web site's instructions, in the variant the language and the publisher call for. */
export function WebInstructions({
  data,
  variant,
}: {
  data: TGetInstallationDataResponse;
  variant: ReturnType<typeof instructionsVariant>;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" data-testid="install-instructions" data-variant={variant}>
      <Title order={2} size="h3" mb="sm">
        {t('installation.webTitle')}
      </Title>
      {variant === 'frenchTwoOptions' ? (
        <Stack gap="md">
          <Text>{t('installation.twoOptions')}</Text>
          <Stack gap="xs">
            <Text fw={600}>{t('installation.option1')}</Text>
            <Text>{t('installation.lineIntro')}</Text>
            <CodeBlock code={data.lineOfCode1} />
          </Stack>
          <Divider />
          <Stack gap="xs">
            <Text fw={600}>{t('installation.option2')}</Text>
            <List type="ordered" spacing={4}>
              <List.Item>
                <Anchor href={WORDPRESS_PLUGIN_PATH} download={WORDPRESS_PLUGIN_FILE}>
                  {t('installation.pluginStep1')}
                </Anchor>
              </List.Item>
              <List.Item>{t('installation.pluginStep2')}</List.Item>
              <List.Item>{t('installation.pluginStep3', { file: WORDPRESS_PLUGIN_FILE })}</List.Item>
              <List.Item>{t('installation.pluginStep4')}</List.Item>
              <List.Item>{t('installation.pluginStep5')}</List.Item>
            </List>
          </Stack>
          <Text>{t('installation.adsStart')}</Text>
        </Stack>
      ) : variant === 'frenchCodeLine' ? (
        <Stack gap="xs">
          <Text>{t('installation.lineIntro')}</Text>
          <CodeBlock code={data.lineOfCode1} />
          <Text>{t('installation.adsStart')}</Text>
        </Stack>
      ) : (
        <Stack gap="xs">
          <Text>{t('installation.lineIntro')}</Text>
          <CodeBlock code={data.lineOfCode1} />
          <Text>{t('installation.wordpressTip')}</Text>
          <Text>{t('installation.contact')}</Text>
        </Stack>
      )}
    </Paper>
  );
}
