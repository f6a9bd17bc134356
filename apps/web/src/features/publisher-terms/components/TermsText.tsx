import { Box, List, Stack, Text, Title } from '@mantine/core';
import type { TermsDocument } from '../content/types.ts';

/**
 * The full terms in a scrollable box of their own (specification 02, section 2.10). The box takes the keyboard's
 * focus so that it scrolls with the arrow keys, and is named by the terms' title.
 */
export function TermsText({ terms }: { terms: TermsDocument }) {
  const titleId = `terms-title-${terms.lang}`;
  return (
    <Box
      component="section"
      role="region"
      aria-labelledby={titleId}
      lang={terms.lang}
      tabIndex={0}
      data-testid="terms-text"
      p={{ base: 'sm', sm: 'lg' }}
      style={{
        maxHeight: 'min(70vh, 720px)',
        overflowY: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
        background: 'var(--mantine-color-body)',
      }}
    >
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id={titleId}>
            {terms.title}
          </Title>
          <Text size="sm" c="dimmed">
            {terms.updated}
          </Text>
        </div>
        {terms.intro.map((paragraph) => (
          <Text key={paragraph} size="sm">
            {paragraph}
          </Text>
        ))}
        {terms.sections.map((section) => (
          <Stack key={section.id} gap={6} id={`terms-${section.id}`}>
            <Title order={3} size="h5">
              {section.title}
            </Title>
            {section.paragraphs.map((paragraph) => (
              <Text key={paragraph} size="sm">
                {paragraph}
              </Text>
            ))}
            {section.items ? (
              <List size="sm" spacing={4} withPadding>
                {section.items.map((item) => (
                  <List.Item key={item}>{item}</List.Item>
                ))}
              </List>
            ) : null}
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
