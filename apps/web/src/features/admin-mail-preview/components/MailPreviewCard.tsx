import { useState } from 'react';
import { Alert, Button, Code, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { REPORT_MAIL_KINDS, type TReportMailKind } from '@helium/contracts';
import { isApiError } from '../../../api/client.ts';
import { useMailPreview } from '../hooks/useMailPreview.ts';
import { useUserChoices } from '../hooks/useUserChoices.ts';

/**
 * The reports by e-mail as a user would receive them now (docs/emails.md): the admin picks the mail and the user,
 * and sees the subject, the HTML part (in a sandboxed frame: no script, no link followed inside it) and the text part.
 */
export function MailPreviewCard() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<TReportMailKind>('weekly-advertiser');
  const users = useUserChoices();
  const preview = useMailPreview();
  const show = () => {
    if (users.chosen) preview.mutate({ kind, userId: Number(users.chosen.value) });
  };
  const shown = preview.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="mail-preview-title" data-testid="mail-preview">
      <Title order={2} size="h4" id="mail-preview-title" mb="xs">
        {t('mailPreview.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('mailPreview.intro')}
      </Text>
      <Stack gap="sm">
        <Group align="end" gap="sm" wrap="wrap">
          <Select
            label={t('mailPreview.kind')}
            data={REPORT_MAIL_KINDS.map((value) => ({ value, label: t(`mailPreview.kinds.${value}`) }))}
            value={kind}
            onChange={(value) => value && setKind(value as TReportMailKind)}
            allowDeselect={false}
            w={{ base: '100%', sm: 260 }}
            data-testid="mail-preview-kind"
          />
          <Select
            label={t('mailPreview.user')}
            placeholder={t('mailPreview.userPlaceholder')}
            searchable
            data={users.choices}
            value={users.chosen?.value ?? null}
            onChange={users.choose}
            searchValue={users.search}
            onSearchChange={users.setSearch}
            filter={({ options }) => options}
            nothingFoundMessage={users.isLoading ? t('common.loading') : t('mailPreview.noUser')}
            w={{ base: '100%', sm: 360 }}
            data-testid="mail-preview-user"
          />
          <Button onClick={show} disabled={!users.chosen} loading={preview.isPending} data-testid="mail-preview-show">
            {t('mailPreview.show')}
          </Button>
        </Group>
        {preview.isError ? (
          <Alert color="red" role="alert">
            {isApiError(preview.error, 409) ? t('mailPreview.nothingToPreview') : t('mailPreview.failed')}
          </Alert>
        ) : null}
        {shown && !preview.isError ? (
          <Stack gap="xs" data-testid="mail-preview-result">
            <Text size="sm">{t('mailPreview.to', { to: shown.to })}</Text>
            <Text fw={600} data-testid="mail-preview-subject">
              {t('mailPreview.subject', { subject: shown.subject })}
            </Text>
            <Text size="sm" fw={600}>
              {t('mailPreview.html')}
            </Text>
            <iframe
              title={t('mailPreview.frameTitle')}
              srcDoc={shown.html}
              sandbox=""
              style={{ width: '100%', height: 560, border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4 }}
              data-testid="mail-preview-html"
            />
            <Text size="sm" fw={600}>
              {t('mailPreview.text')}
            </Text>
            <Code block data-testid="mail-preview-text" style={{ whiteSpace: 'pre-wrap' }}>
              {shown.text}
            </Code>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
