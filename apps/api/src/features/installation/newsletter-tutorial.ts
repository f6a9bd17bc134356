import { NEWSLETTER_ISSUE_PLACEHOLDER } from '@helium/contracts';

/**
 * The built-in newsletter installation tutorial (about 3 minutes of reading), in French and English: where
 * the two banner snippets go and what the issue placeholder is. Static, no user data.
 */
export const NEWSLETTER_TUTORIAL = `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Helium Ads · Installer les bannières dans votre newsletter</title>
<style>
body{font-family:system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#222}
code{background:#f1f3f5;padding:0 .25rem;border-radius:3px}
h2{margin-top:2rem}
</style>
</head>
<body>
<h1>Installer les bannières dans votre newsletter</h1>
<ol>
<li>Dans Helium Ads, ouvrez <strong>Installation</strong> et copiez le code de la bannière du haut.</li>
<li>Dans votre outil d'envoi, ajoutez un bloc <strong>HTML</strong> (ou « code ») juste après l'en-tête de votre
modèle de newsletter et collez-y le code.</li>
<li>Faites de même avec le code de la bannière du bas, dans un bloc HTML placé avant le pied de page.</li>
<li>Le code contient <code>${NEWSLETTER_ISSUE_PLACEHOLDER}</code> : Mailchimp le remplace par l'identifiant de
chaque envoi. Avec un autre outil, remplacez-le par la balise de fusion de l'identifiant de campagne de votre outil
(la même dans les deux bannières). Chaque numéro garde ainsi la même publicité à chaque ouverture.</li>
<li>Envoyez-vous un test : une publicité apparaît à la place de chaque bannière. Les publicités commencent
environ 48 heures après l'installation.</li>
</ol>
<h2 lang="en">In English</h2>
<ol lang="en">
<li>In Helium Ads, open <strong>Installation</strong> and copy the top banner code.</li>
<li>In your e-mail tool, add an <strong>HTML</strong> (or "code") block right after your newsletter template's
header and paste the code into it.</li>
<li>Do the same with the bottom banner code, in an HTML block placed before the footer.</li>
<li>The code contains <code>${NEWSLETTER_ISSUE_PLACEHOLDER}</code>: Mailchimp replaces it with each campaign's id.
With another tool, replace it with that tool's campaign-id merge tag (the same in both banners), so that each
issue keeps the same ad on every open.</li>
<li>Send yourself a test: an ad appears in place of each banner.</li>
</ol>
</body>
</html>
`;
