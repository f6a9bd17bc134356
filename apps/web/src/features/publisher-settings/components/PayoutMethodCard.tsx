import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TEXT_LIMITS, type TSavePublisherSettingsRequest } from '@helium/contracts';
import { useTooLongText } from '../../forms/hooks/useIssueText.ts';
import type { PayoutMethod } from '@helium/domain/payouts';
import { apiErrorMessage } from '../../../api/client.ts';
import {
  firstProblem,
  isConfigured,
  METHOD_FIELDS,
  requestToSave,
  serverProblem,
  type FieldName,
  type FieldProblem,
} from '../utils/payoutForm.ts';

/** Fields typed on several lines. */
const MULTILINE: ReadonlySet<FieldName> = new Set(['userAddress']);

/**
 * One payout method's details (section 2.8): read mode with Modify; edit mode with Save and Cancel (which reads the
 * settings again). The domain's rules check the details first: the first wrong field gets the focus and its message,
 * and nothing is sent; a field the server refuses is shown the same way.
 */
export function PayoutMethodCard({
  method,
  values,
  onSave,
  onReload,
}: {
  method: PayoutMethod;
  values: Record<string, string>;
  onSave: (request: TSavePublisherSettingsRequest) => Promise<unknown>;
  onReload: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const fields: readonly FieldName[] = METHOD_FIELDS[method];
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Record<string, string>>(values);
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ field: FieldName; n: number } | null>(null);
  const inputs = useRef(new Map<FieldName, HTMLInputElement | HTMLTextAreaElement>());

  // Focus after the render that shows the message (and re-enabled the fields after a save).
  useEffect(() => {
    if (focusRequest) inputs.current.get(focusRequest.field)?.focus();
  }, [focusRequest]);

  const refuse = (found: FieldProblem) => {
    setProblem(found);
    setFocusRequest((previous) => ({ field: found.field, n: (previous?.n ?? 0) + 1 }));
  };

  const modify = () => {
    setDraft(values);
    setProblem(null);
    setFormError(null);
    setEditing(true);
    setFocusRequest((previous) => ({ field: fields[0] ?? 'address', n: (previous?.n ?? 0) + 1 }));
  };
  const cancel = () => {
    setEditing(false);
    setProblem(null);
    setFormError(null);
    void onReload();
  };
  const tooLong = useTooLongText();
  /** A detail over its length, said as it is typed (issue 36, point 8: refused, never cut). */
  const lengthError = (field: FieldName) => tooLong(draft[field] ?? '', TEXT_LIMITS.payoutDetails[field]);

  const save = async () => {
    if (fields.some((field) => lengthError(field))) return;
    const request = requestToSave({ field: method, data: draft } as TSavePublisherSettingsRequest);
    const found = firstProblem(request);
    setFormError(null);
    if (found) {
      refuse(found);
      return;
    }
    setProblem(null);
    setSaving(true);
    try {
      await onSave(request);
      setEditing(false);
    } catch (caught) {
      console.error('save-settings failed', caught);
      const refused = serverProblem(method, caught);
      if (refused) refuse(refused);
      else setFormError(apiErrorMessage(caught) ?? t('common.error'));
    } finally {
      setSaving(false);
    }
  };

  const messageOf = (field: FieldName) => {
    if (problem?.field !== field) return null;
    if (problem.messageKey) return t(problem.messageKey);
    return problem.message ?? t('common.error');
  };
  const titleId = `payout-${method}-title`;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId} data-testid={`payout-card-${method}`}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId}>
          {t(`payout.methods.${method}`)}
        </Title>
        {editing ? (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            <Stack gap="sm">
              {fields.map((field) => {
                const common = {
                  label: t(`settings.fields.${field}`),
                  value: draft[field] ?? '',
                  error: lengthError(field) ?? messageOf(field),
                  readOnly: saving,
                  name: field,
                };
                return MULTILINE.has(field) ? (
                  <Textarea
                    key={field}
                    {...common}
                    ref={(element) => {
                      if (element) inputs.current.set(field, element);
                      else inputs.current.delete(field);
                    }}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      setDraft((old) => ({ ...old, [field]: value }));
                    }}
                    autosize
                    minRows={3}
                  />
                ) : (
                  <TextInput
                    key={field}
                    {...common}
                    ref={(element) => {
                      if (element) inputs.current.set(field, element);
                      else inputs.current.delete(field);
                    }}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      setDraft((old) => ({ ...old, [field]: value }));
                    }}
                    description={field === 'userPhoneNumber' ? t('settings.optional') : undefined}
                    autoComplete="off"
                    spellCheck={false}
                  />
                );
              })}
              {formError !== null ? (
                <Alert color="red" role="alert">
                  {formError}
                </Alert>
              ) : null}
              <Group gap="sm">
                <Button type="submit" loading={saving}>
                  {t('settings.save')}
                </Button>
                <Button variant="default" onClick={cancel} disabled={saving}>
                  {t('settings.cancel')}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <>
            {isConfigured(values) ? (
              <Stack gap={6} data-testid={`payout-details-${method}`}>
                {fields.map((field) => (
                  <div key={field}>
                    <Text size="sm" c="dimmed">
                      {t(`settings.fields.${field}`)}
                    </Text>
                    <Text
                      data-testid={`payout-${method}-${field}`}
                      className="user-text"
                      style={{ whiteSpace: 'pre-line' }}
                      ff={field === 'iban' || field === 'bic' || field === 'address' ? 'monospace' : undefined}
                    >
                      {values[field]?.trim() ? values[field] : '—'}
                    </Text>
                  </div>
                ))}
              </Stack>
            ) : (
              <Text c="dimmed" data-testid={`payout-${method}-empty`}>
                {t('settings.notConfigured')}
              </Text>
            )}
            <Group>
              <Button
                variant="default"
                onClick={modify}
                aria-label={t('settings.modifyOf', { method: t(`payout.methods.${method}`) })}
              >
                {t('settings.modify')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
