import { Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { PRODUCT_NAME } from './shell/Logo.tsx';

/** The page's one <h1>, also used as the browser tab title. */
export function PageHeader({ title }: { title: string }) {
  useDocumentTitle(`${title} · ${PRODUCT_NAME}`);
  return (
    <Title order={1} mb="md">
      {title}
    </Title>
  );
}
