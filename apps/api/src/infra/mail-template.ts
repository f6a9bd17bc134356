import type { Locale } from '@helium/domain/format';
import type { MailAttachment, MailMessage } from './mailer.ts';

/** The name every mail is signed with and titled by. */
export const MAIL_PRODUCT = 'Helium Ads';

/**
 * A piece of a line: plain text; a link (its address shown in the text part, a link in the HTML part); a
 * sign-in code (plain in the text part, large and spaced in the HTML part); or words set in bold in HTML.
 */
export type MailInline = string | { link: string } | { code: string } | { strong: string };
/** A line of a paragraph: one piece, or pieces side by side. */
export type MailLine = MailInline | readonly MailInline[];
/** Lines kept together: one line break between them in the text part, `<br>` in the HTML part. */
export type MailParagraph = readonly MailLine[];

export interface MailContent {
  to: string;
  locale: Locale;
  subject: string;
  paragraphs: readonly MailParagraph[];
  attachments?: MailAttachment[];
  /** More headers of the message (MailMessage.headers). */
  headers?: Record<string, string>;
}

const pieces = (line: MailLine): readonly MailInline[] => (Array.isArray(line) ? line : [line as MailInline]);

function inlineText(piece: MailInline): string {
  if (typeof piece === 'string') return piece;
  if ('link' in piece) return piece.link;
  if ('code' in piece) return piece.code;
  return piece.strong;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const LINK_STYLE = 'color:#5f3dc4;text-decoration:underline;word-break:break-all';
const CODE_STYLE =
  'display:inline-block;font-family:Menlo,Consolas,monospace;font-size:28px;font-weight:700;letter-spacing:6px;' +
  'color:#212529;background:#f1f3f5;border-radius:6px;padding:6px 12px';

function inlineHtml(piece: MailInline): string {
  if (typeof piece === 'string') return escapeHtml(piece);
  if ('link' in piece) return `<a href="${escapeHtml(piece.link)}" style="${LINK_STYLE}">${escapeHtml(piece.link)}</a>`;
  if ('code' in piece) return `<span style="${CODE_STYLE}">${escapeHtml(piece.code)}</span>`;
  return `<strong>${escapeHtml(piece.strong)}</strong>`;
}

/** The text part: what the mails always said, paragraphs apart by a blank line, signed with the product's name. */
export function mailText(paragraphs: readonly MailParagraph[]): string {
  return [...paragraphs, [MAIL_PRODUCT]]
    .map((paragraph) => paragraph.map((line) => pieces(line).map(inlineText).join('')).join('\n'))
    .join('\n\n');
}

/**
 * The HTML part, from the same paragraphs: one centred column of at most 560 px, inline styles only (mail
 * clients drop style sheets), the language in `lang` so that screen readers and translators read it right.
 */
export function mailHtml(locale: Locale, subject: string, paragraphs: readonly MailParagraph[]): string {
  const body = paragraphs
    .map(
      (paragraph) =>
        `<p style="margin:0 0 16px;line-height:1.5">${paragraph
          .map((line) => pieces(line).map(inlineHtml).join(''))
          .join('<br>\n')}</p>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f8f9fa">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f8f9fa">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #dee2e6;border-radius:8px">
<tr><td style="padding:20px 24px;border-bottom:1px solid #dee2e6;font:700 18px/1.2 Arial,Helvetica,sans-serif;color:#5f3dc4">${MAIL_PRODUCT}</td></tr>
<tr><td style="padding:24px;font:16px/1.5 Arial,Helvetica,sans-serif;color:#212529">
${body}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #dee2e6;font:13px/1.4 Arial,Helvetica,sans-serif;color:#495057">${MAIL_PRODUCT}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** One mail, its text and HTML parts rendered from the same paragraphs, in the recipient's language. */
export function renderMail(content: MailContent): MailMessage {
  const { to, locale, subject, paragraphs, attachments, headers } = content;
  return {
    to,
    subject,
    language: locale,
    text: mailText(paragraphs),
    html: mailHtml(locale, subject, paragraphs),
    ...(attachments ? { attachments } : {}),
    ...(headers ? { headers } : {}),
  };
}
