import { Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Logo, PRODUCT_NAME } from '../../app/shell/Logo.tsx';
import { usePageLanguage } from '../../app/usePageLanguage.ts';

const TITLE = "Validation de l'annonce";

/** Public, French-only page reached from the link mailed to publishers. The screen itself comes later. */
export function PublisherAdValidationPage() {
  usePageLanguage('fr');
  useDocumentTitle(`${TITLE} · ${PRODUCT_NAME}`);
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="md" p="xl" maw={520} w="100%">
        <Stack gap="md">
          <Logo />
          <Title order={1} size="h2">
            {TITLE}
          </Title>
          <Stack gap="xs" align="center" role="status">
            <Loader size="sm" aria-hidden="true" />
            <Text>Chargement du lien de validation de l'annonce…</Text>
          </Stack>
        </Stack>
      </Paper>
    </Center>
  );
}
