import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert, Anchor, Button, Center, Checkbox, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { TEXT_LIMITS, type TSignInRequest } from '@helium/contracts';
import { api, isApiError } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { refusalIssues } from '../forms/utils/issues.ts';
import { Logo, PRODUCT_NAME } from '../../app/shell/Logo.tsx';
import { usePageLanguage } from '../../app/usePageLanguage.ts';
import {
  canSubmit,
  emailFromQuery,
  nextFromQuery,
  interpretSignInResponse,
  isCodeFieldEnabled,
  isEmailTooLong,
  signInResponseFromBody,
  type SignInFormState,
} from './utils/signInLogic.ts';
import { SIGN_IN_TEXTS as T } from './utils/signInTexts.ts';

type FocusTarget = { field: 'email' | 'code'; request: number };

/** The terms of use, public (features/publisher-terms): the agreement's link opens them in a new tab. */
const TERMS_PATH = '/terms';

/** Passwordless sign-in, French only (spec 01: Sign-in screen; sections 4, 5 and 8). */
export function SignInPage() {
  usePageLanguage('fr');
  useDocumentTitle(`${T.title} · ${PRODUCT_NAME}`);
  const navigate = useNavigate();
  const location = useLocation();
  const [checking, setChecking] = useState(true);
  const [form, setForm] = useState<SignInFormState>(() => ({
    step: 1,
    email: emailFromQuery(location.search),
    code: '',
    agreementPending: false,
    agreed: false,
    submitting: false,
  }));
  const [error, setError] = useState<string | null>(null);
  const [focus, setFocus] = useState<FocusTarget | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const next = nextFromQuery(location.search);
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let active = true;
    void (async () => {
      try {
        await api.csrfCookie();
      } catch {
        console.error('Sanctum API call failed');
      }
      try {
        const user = await api.user();
        if (!active) return;
        // Signed in already: the user goes to the signed-in screens, whose code (the query cache) loads only now.
        const [{ queryClient }, { USER_QUERY_KEY }] = await Promise.all([
          import('../../app/queryClient.ts'),
          import('../user/hooks/useCurrentUser.ts'),
        ]);
        queryClient.setQueryData(USER_QUERY_KEY, user);
        void navigate('/', { replace: true });
      } catch {
        if (active) setChecking(false);
      }
    })();
    return () => {
      active = false;
    };
  }, [navigate]);

  // Focus after the render that re-enabled the field: a disabled input cannot take focus.
  useEffect(() => {
    if (!focus) return;
    (focus.field === 'code' ? codeRef : emailRef).current?.focus();
  }, [focus]);

  const update = (patch: Partial<SignInFormState>) => setForm((current) => ({ ...current, ...patch }));

  /** Back to step 1 with the address editable (a mistyped one), keeping what was typed. */
  const useAnotherEmail = () => {
    update({ step: 1, code: '', agreementPending: false, agreed: false });
    setError(null);
    setFocus((previous) => ({ field: 'email', request: (previous?.request ?? 0) + 1 }));
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canSubmit(form)) return;
    const email = form.email.trim();
    const request: TSignInRequest =
      form.step === 1
        ? { step: 1, email }
        : {
            step: 2,
            email,
            code: form.code.trim(),
            ...(form.agreementPending ? { hasUserAgreed: true } : {}),
            ...(next ? { next } : {}),
          };
    setError(null);
    update({ submitting: true });
    try {
      let response;
      try {
        response = await api.signIn(request);
      } catch (failure) {
        const carried = isApiError(failure) ? signInResponseFromBody(failure.body) : null;
        if (!carried) throw failure;
        response = carried;
      }
      const outcome = interpretSignInResponse(response, form);
      if (outcome.kind === 'redirect') {
        // The spinner keeps turning while the browser leaves for the server's address.
        window.location.assign(outcome.to);
        return;
      }
      setForm((current) => ({
        ...current,
        step: outcome.step,
        agreementPending: outcome.agreementPending,
        agreed: outcome.agreementPending ? current.agreed : false,
        // A right code that now needs the terms ticked stays in its field: the user only ticks and submits.
        code: outcome.step === 1 || (outcome.error && !outcome.agreementPending) ? '' : current.code,
        submitting: false,
      }));
      setError(outcome.error);
      setFocus((previous) => ({ field: outcome.focusCode ? 'code' : 'email', request: (previous?.request ?? 0) + 1 }));
    } catch (failure) {
      if (isApiError(failure, 429)) setError(T.tooManyAttempts);
      else if (isApiError(failure, 422)) {
        // The server's 422 names the field at fault (the address's form, or a code that is not 6 digits).
        const aboutCode = refusalIssues(failure)?.some((issue) => issue.path.startsWith('code'));
        setError(aboutCode ? T.codeFormat : T.invalidEmail);
      } else console.error('Sign-in call failed', failure);
      update({ submitting: false });
    }
  }

  if (checking) {
    return (
      <Center component="main" mih="100vh" role="status" aria-label={T.checking}>
        <DelayedLoader />
      </Center>
    );
  }

  const atStep2 = form.step === 2;
  const codeEnabled = isCodeFieldEnabled(form);

  return (
    <Center component="main" mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420}>
        <form onSubmit={(event) => void submit(event)} noValidate={false}>
          <Stack gap="md">
            <Logo />
            <Title order={1} size="h2">
              {T.title}
            </Title>
            {error && (
              <Alert color="red" variant="light" role="alert">
                {error}
              </Alert>
            )}
            <TextInput
              ref={emailRef}
              label={T.emailLabel}
              type="email"
              name="email"
              autoComplete="email"
              required
              autoFocus={!atStep2}
              value={form.email}
              error={isEmailTooLong(form.email) ? T.emailTooLong(TEXT_LIMITS.email) : undefined}
              disabled={atStep2 || form.submitting}
              onChange={(event) => update({ email: event.currentTarget.value })}
            />
            {atStep2 && (
              <Anchor component="button" type="button" size="sm" onClick={useAnotherEmail} disabled={form.submitting}>
                {T.useAnotherEmail}
              </Anchor>
            )}
            {atStep2 && form.agreementPending && (
              <Checkbox
                label={
                  <>
                    {T.agreementPrefix}
                    <Anchor href={TERMS_PATH} target="_blank" rel="noopener" title={T.termsLinkTitle} inherit>
                      {T.termsLink}
                    </Anchor>
                  </>
                }
                checked={form.agreed}
                disabled={form.submitting}
                onChange={(event) => update({ agreed: event.currentTarget.checked })}
              />
            )}
            {atStep2 && (
              <TextInput
                ref={codeRef}
                label={T.codeLabel}
                description={T.codeHint}
                type="password"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                required
                value={form.code}
                disabled={!codeEnabled}
                onChange={(event) => update({ code: event.currentTarget.value })}
              />
            )}
            <Button type="submit" fullWidth loading={form.submitting} disabled={!canSubmit(form) && !form.submitting}>
              {atStep2 ? T.signIn : T.continue}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
