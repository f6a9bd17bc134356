const AGREEMENT_PREFIX = "J'accepte les ";
const TERMS_LINK = "conditions d'utilisation";

/** The sign-in screen is French only (spec 01), so its texts live here rather than in the en/fr catalogues. */
export const SIGN_IN_TEXTS = {
  title: 'Connexion',
  emailLabel: 'Adresse e-mail',
  codeLabel: 'Code de connexion',
  codeHint:
    'Un code de connexion vient de vous être envoyé par e-mail. Vérifiez votre boîte de réception et votre dossier de courrier indésirable (spam).',
  agreementLabel: `${AGREEMENT_PREFIX}${TERMS_LINK}`,
  /** The agreement's label before its link, and the link to the terms (opened in a new tab). */
  agreementPrefix: AGREEMENT_PREFIX,
  termsLink: TERMS_LINK,
  termsLinkTitle: "Lire les conditions d'utilisation (nouvel onglet)",
  continue: 'Continuer',
  useAnotherEmail: 'Utiliser une autre adresse e-mail',
  signIn: 'Se connecter',
  checking: 'Chargement…',
  tooManyAttempts: 'Trop de tentatives, réessayez plus tard.',
  emailTooLong: (max: number) => `L'adresse e-mail ne doit pas dépasser ${max} caractères.`,
  invalidEmail: "Cette adresse e-mail n'est pas valide.",
  codeFormat: 'Le code se compose de 6 chiffres.',
  agreementRequired: "Veuillez accepter les conditions d'utilisation pour continuer.",
} as const;

/** French messages of the sign-in statuses (spec 01, section 8). */
export const SIGN_IN_ERRORS = {
  wrongCredentialsWrongUser: "Cette adresse e-mail n'existe pas dans le système.",
  wrongCredentialsWrongToken: 'Code incorrect, recommencez.',
  expiredCode: 'Code expiré, recommencez.',
  agreementRequired: SIGN_IN_TEXTS.agreementRequired,
} as const;
