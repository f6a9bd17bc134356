/** The publisher ad-validation page is in French only (spec 01, section 1 and 2). */
export const PUBLISHER_AD_VALIDATION_TEXTS = {
  title: "Validation de l'annonce",
  loading: "Chargement du lien de validation de l'annonce…",
  invalidLink: "Ce lien de validation n'est pas valide. Vérifiez l'adresse reçue par e-mail ou contactez le support.",
  loadFailed: "L'annonce n'a pas pu être chargée. Réessayez dans quelques instants.",
  intro: (advertiser: string) => `Nouvelle annonce de ${advertiser}.`,
  question: (publisher: string) => `Souhaitez-vous afficher cette annonce sur ${publisher} ?`,
  accept: 'Oui, cette annonce sera affichée sur mon site',
  decline: 'Non, cette annonce ne sera pas affichée sur mon site',
  adLabel: "L'annonce (ouvre son lien dans un nouvel onglet)",
  saved: 'Votre choix est enregistré. Vous pouvez le modifier pendant 24 heures.',
  saveFailed: "Votre choix n'a pas pu être enregistré. Réessayez.",
  activeLocked:
    "Cette annonce est active. Ce choix ne peut plus être modifié : contactez le support pour l'invalider exceptionnellement.",
  declinedLocked:
    'Vous avez refusé cette annonce. Ce choix ne peut plus être modifié : contactez le support pour le changer exceptionnellement.',
  pendingHint: 'Sans réponse de votre part dans les 24 heures suivant la demande, elle sera considérée comme acceptée.',
  backToDashboard: 'Retour au tableau de bord',
} as const;
