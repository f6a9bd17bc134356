import { Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The page links of a list that spans several pages (nothing for one page): a navigation landmark named `label`,
 * each link and arrow named for screen readers ("Page 2", "Next page").
 */
export function Pages({
  label,
  pages,
  page,
  onChange,
}: {
  label: string;
  pages: number;
  page: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav aria-label={label}>
      <Pagination
        total={pages}
        value={page}
        onChange={onChange}
        size="sm"
        getItemProps={(item) => ({ 'aria-label': t('common.page', { page: item }) })}
        getControlProps={(control) => ({
          'aria-label': t(control === 'previous' ? 'common.previousPage' : 'common.nextPage'),
        })}
      />
    </nav>
  );
}
