import { useMutation } from '@tanstack/react-query';
import { previewMailCall, type TPreviewMailRequest } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

/** The admin's preview of a report mail for a user: the subject, HTML and text as they would go now. */
export function useMailPreview() {
  return useMutation({
    mutationFn: (request: TPreviewMailRequest) => apiPost(previewMailCall, request),
    onError: (error) => console.error('preview-mail failed', error),
  });
}
