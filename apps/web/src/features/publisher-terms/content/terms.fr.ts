import type { TermsDocument } from './types.ts';

/** Les conditions d'utilisation des éditeurs, en français : cette version prévaut sur la version anglaise. */
export const TERMS_FR: TermsDocument = {
  lang: 'fr',
  title: "Conditions d'utilisation des éditeurs",
  updated: 'Version du 1er novembre 2026',
  intro: [
    "Les présentes conditions régissent la participation d'un éditeur au réseau publicitaire Helium Ads. En cochant « J'accepte les conditions d'utilisation » lors de la connexion, ou en affichant des annonces du réseau, l'éditeur les accepte dans leur intégralité.",
  ],
  sections: [
    {
      id: 'parties',
      title: '1. Parties',
      paragraphs: [
        "Les présentes conditions sont conclues entre Helium Ads SAS, 10 rue de la Paix, 75002 Paris, France (le « Réseau »), et la personne physique ou morale qui inscrit un ou plusieurs sites ou lettres d'information auprès du Réseau (l'« Éditeur »), ensemble les « Parties ».",
        "La personne qui accepte les présentes conditions pour le compte d'une société déclare être habilitée à l'engager.",
      ],
    },
    {
      id: 'definitions',
      title: '2. Définitions',
      paragraphs: ['Dans les présentes conditions :'],
      items: [
        "« Site » désigne un site internet ou une lettre d'information inscrit par l'Éditeur et accepté par le Réseau.",
        '« Annonceur » désigne un client du Réseau qui achète des impressions ou des clics ; « Annonce » ou « création » désigne une image ou une vidéo fournie par un Annonceur et validée par le Réseau.',
        "« Balise » désigne la ligne de code, l'extension ou le code de bannière de lettre d'information fourni par le Réseau pour afficher les Annonces sur un Site.",
        '« Impression » désigne une Annonce affichée sur un Site et comptée comme vue par le Réseau selon ses règles de comptage publiées.',
        "« Clic » désigne un clic sur une Annonce qui mène le visiteur à la page de l'Annonceur. Un clic unique est compté une fois par heure, par personne et par création : les clics suivants de la même personne sur la même création dans cette heure ne sont pas comptés.",
        "« Trafic Invalide » désigne toute impression ou tout clic qui ne provient pas d'un visiteur humain réellement intéressé par le contenu du Site, notamment le trafic généré par des robots, des scripts, des outils automatisés, des fermes à clics, des incitations, ou par l'Éditeur lui-même.",
        "« Pic » désigne un nombre d'impressions sur un Site au moins égal au double du nombre d'impressions convenu avec le Réseau pour ce Site, pendant 3 jours consécutifs, avec un minimum de 5 000 000 d'impressions par jour pour les annonces display ou de 1 000 000 d'impressions par jour pour les annonces vidéo.",
        "« Solde » désigne le montant des revenus crédités à l'Éditeur et non encore payés, tel qu'il figure sur sa page Comptabilité.",
        '« Mois » désigne un mois civil. Toutes les dates, journées et heures des présentes conditions sont exprimées en temps universel coordonné (UTC), base de temps de toutes les statistiques du Réseau.',
      ],
    },
    {
      id: 'registration',
      title: '3. Inscription et acceptation des Sites',
      paragraphs: [
        "L'Éditeur fournit des informations exactes sur lui-même et ses Sites et les tient à jour. Le Réseau peut accepter ou refuser un Site à sa discrétion, notamment au regard de son audience, de son contenu et de sa qualité.",
        "L'Éditeur doit posséder ou contrôler chaque Site qu'il inscrit et détenir tous les droits nécessaires pour y afficher des Annonces.",
      ],
    },
    {
      id: 'tags',
      title: '4. Installation des Balises',
      paragraphs: [
        "L'Éditeur active les Balises sur son Site accepté dans les 30 jours suivant l'acceptation. Une fois activées, les Balises ne peuvent être retirées, ou empêchées d'afficher des Annonces, pendant plus de 30 jours consécutifs.",
        "Si les Balises ne sont pas activées dans ce délai, ou sont retirées pendant plus de 30 jours consécutifs, le Réseau peut fermer le compte du Site sans préavis. Le Solde acquis avant la fermeture reste payable dans les conditions de l'article 8.",
        "L'Éditeur ne modifie ni les Balises ni les Annonces, ne les masque, ne les recouvre ni ne les réduit, et ne les place pas dans un cadre, une fenêtre surgissante ou une page que le visiteur n'a pas demandé à voir.",
      ],
    },
    {
      id: 'obligations',
      title: "5. Obligations de l'Éditeur",
      paragraphs: ["L'Éditeur s'engage :"],
      items: [
        "à ne pas afficher d'Annonces sur des pages au contenu illicite, violent, haineux, pornographique, diffamatoire, portant atteinte aux droits d'autrui, ou faisant la promotion des jeux d'argent, des armes ou des drogues sans l'accord écrit du Réseau ;",
        "à ne pas cliquer sur les Annonces de ses propres Sites, ni inciter quiconque à cliquer sur elles ou à les afficher, par quelque moyen que ce soit, notamment par des récompenses, des mentions telles que « cliquez ici » à côté d'une Annonce ou un placement trompeur ;",
        "à ne pas acheter de trafic, ni recevoir de trafic de sources qu'il ne contrôle pas, sans en informer le Réseau au préalable et obtenir son accord écrit ;",
        "à faire en sorte que pas plus de 5 % des visiteurs uniques d'un Site sur une journée ne proviennent d'une même adresse IP ;",
        "à informer ses visiteurs et à recueillir tout consentement exigé par la loi applicable aux cookies et aux données personnelles avant l'affichage des Annonces ;",
        'à respecter toutes les lois et réglementations applicables à ses Sites et à son activité.',
      ],
    },
    {
      id: 'obligations-network',
      title: '6. Obligations du Réseau',
      paragraphs: [
        "Le Réseau fournit les Balises, choisit les Annonces affichées sur les Sites, soumet chaque nouvelle Annonce à la validation de l'Éditeur, compte les impressions et les clics, et donne à l'Éditeur accès à ses statistiques et à sa page Comptabilité. Les statistiques n'apparaissent qu'après au moins 24 heures d'affichage d'Annonces sur un Site.",
        "Le Réseau apporte un soin raisonnable à la disponibilité du service mais ne garantit pas qu'une Annonce soit disponible pour chaque page vue, ni aucun nombre minimal d'impressions, de clics ou de revenus.",
      ],
    },
    {
      id: 'measurement',
      title: '7. Mesure et Trafic Invalide',
      paragraphs: [
        'Les impressions, les clics et les revenus sont ceux comptés par les systèmes du Réseau, qui prévalent sur toute autre mesure. Les journées sont des journées UTC.',
        "Le Réseau peut à tout moment détecter, écarter et refuser de payer le Trafic Invalide, et déduire du Solde tout montant crédité pour un trafic reconnu invalide par la suite. Un Pic qui n'a pas été convenu par écrit avec le Réseau au préalable est mis en examen ; les impressions du Pic ne sont payées que dans la mesure où le Réseau les valide.",
        "Pour chaque manquement à l'article 4 (troisième alinéa) ou à l'article 5 (deuxième, troisième ou quatrième point), l'Éditeur doit au Réseau, à titre de clause pénale, une somme pouvant aller jusqu'à 1 000 USD par infraction, sans préjudice de la retenue des revenus concernés et de la résiliation.",
      ],
    },
    {
      id: 'payment',
      title: '8. Revenus et paiement',
      paragraphs: [
        "L'Éditeur reçoit la part des dépenses des Annonceurs sur ses Sites fixée par le Réseau, créditée chaque jour sur son Solde en euros. La page Comptabilité indique les revenus, les paiements et les ajustements de l'Éditeur, et son Solde après chacun d'eux.",
        "L'Éditeur demande le paiement de la totalité de son Solde depuis sa page Comptabilité dès que le Solde atteint le minimum qui y est indiqué, par l'un des moyens que le Réseau a autorisés pour lui (Bitcoin, PayPal ou virement bancaire) et qu'il a configurés dans ses Paramètres. Les paiements en euros par PayPal ou par virement supportent les frais de transfert indiqués avant la demande ; les paiements en dollars américains et en Bitcoin ne supportent aucuns frais. Les montants en dollars ou en Bitcoin sont convertis au taux du Réseau du jour de la demande.",
        "Les revenus acquis au cours d'un Mois sont payés dans les 75 jours suivant la fin de ce Mois, à condition qu'un paiement ait été demandé et que les coordonnées de paiement soient exactes. Une fois le transfert envoyé, le délai de réception dépend du moyen : environ 1 jour ouvré pour les dollars américains, environ 30 minutes pour le Bitcoin et jusqu'à 30 jours ouvrés pour les euros.",
        "Le Réseau n'émet pas de chèque d'un montant inférieur à 250 USD ; un Solde inférieur est reporté sur le Mois suivant jusqu'à ce qu'il atteigne ce montant. Plus généralement, un Solde inférieur au minimum de paiement est reporté sur les Mois suivants.",
        "L'Éditeur est responsable des impôts et charges sociales dus sur ses revenus et de l'exactitude de ses coordonnées de paiement. Un paiement retourné en raison de coordonnées erronées est recrédité sur le Solde, déduction faite des frais facturés au Réseau.",
      ],
    },
    {
      id: 'disputes',
      title: '9. Contestations des statistiques et des paiements',
      paragraphs: [
        "L'Éditeur doit formuler toute contestation relative aux statistiques, aux revenus ou à un paiement par écrit dans les 60 jours suivant la fin du Mois concerné, ou la date du paiement concerné, avec les éléments nécessaires à son examen. Passé ce délai, les statistiques, les revenus et les paiements de ce Mois sont réputés acceptés.",
      ],
    },
    {
      id: 'confidentiality',
      title: '10. Confidentialité',
      paragraphs: [
        "Chaque Partie garde confidentielles les informations non publiques de l'autre Partie, notamment les prix, les parts de revenus, les statistiques, les informations des Annonceurs et les détails techniques du service, et ne les utilise que pour l'exécution des présentes conditions. Cette obligation s'applique pendant toute la durée de la relation et 2 ans après sa fin, sauf pour les informations dont la loi impose la communication.",
      ],
    },
    {
      id: 'intellectual-property',
      title: '11. Propriété intellectuelle',
      paragraphs: [
        "Le Réseau concède à l'Éditeur, pour la durée des présentes conditions, un droit non exclusif et non cessible d'utiliser les Balises sur ses Sites acceptés, dans le seul but d'afficher des Annonces. Les Annonces restent la propriété des Annonceurs ; les Balises, les statistiques et les logiciels du Réseau restent la propriété du Réseau.",
        "L'Éditeur autorise le Réseau à mentionner le nom de ses Sites dans la liste des sites participants présentée aux Annonceurs.",
      ],
    },
    {
      id: 'personal-data',
      title: '12. Données personnelles',
      paragraphs: [
        "Chaque Partie respecte le Règlement général sur la protection des données et les lois applicables en matière de vie privée pour les traitements qu'elle effectue. Le Réseau traite les données des contacts de l'Éditeur pour gérer le compte et les paiements, et les données techniques des visiteurs nécessaires au comptage des impressions et des clics et à la détection du Trafic Invalide, comme le décrit sa politique de confidentialité.",
      ],
    },
    {
      id: 'liability',
      title: '13. Responsabilité',
      paragraphs: [
        "Chaque Partie est responsable des dommages directs qu'elle cause à l'autre par un manquement aux présentes conditions. Aucune Partie n'est responsable des dommages indirects, tels que le manque à gagner, la perte d'audience ou la perte de données.",
        "La responsabilité totale du Réseau au titre des présentes conditions, toutes réclamations confondues, est limitée aux sommes versées à l'Éditeur au cours des 12 mois précédant le fait générateur de la réclamation.",
        "L'Éditeur garantit le Réseau contre toute réclamation d'un tiers résultant du contenu de ses Sites ou de son manquement aux présentes conditions.",
      ],
    },
    {
      id: 'termination',
      title: '14. Durée et résiliation',
      paragraphs: [
        "Les présentes conditions s'appliquent à compter de leur acceptation pour une durée indéterminée. Chaque Partie peut y mettre fin à tout moment en retirant les Balises ou par notification écrite, avec effet 5 jours après son envoi.",
        "Le Réseau peut suspendre un Site ou mettre fin aux présentes conditions sans préavis en cas de Trafic Invalide, de manquement grave de l'Éditeur, ou dans le cas prévu à l'article 4.",
        "À la résiliation, l'Éditeur retire les Balises. Le Solde acquis par un trafic valide avant la résiliation est payé dans les conditions de l'article 8, déduction faite de toute somme due au Réseau.",
      ],
    },
    {
      id: 'changes',
      title: '15. Modification des conditions',
      paragraphs: [
        "Le Réseau peut modifier les présentes conditions en informant l'Éditeur par e-mail ou dans l'application au moins 5 jours avant l'entrée en vigueur de la modification. Si l'Éditeur n'accepte pas la modification, il peut mettre fin aux présentes conditions avant cette date ; l'affichage d'Annonces après cette date vaut acceptation des nouvelles conditions.",
      ],
    },
    {
      id: 'law',
      title: '16. Droit applicable et juridiction',
      paragraphs: [
        "Les présentes conditions sont régies par le droit français. Les Parties recherchent d'abord une solution amiable à tout différend. À défaut de solution dans les 30 jours, le différend est porté devant les tribunaux compétents de Paris, France, y compris en cas de pluralité de défendeurs ou d'appel en garantie.",
      ],
    },
    {
      id: 'miscellaneous',
      title: '17. Dispositions diverses',
      paragraphs: [
        "Les présentes conditions constituent l'intégralité de l'accord des Parties sur leur objet. Si une clause est déclarée nulle, les autres restent en vigueur. Le fait de ne pas se prévaloir d'une clause ne vaut pas renonciation à celle-ci. L'Éditeur ne peut céder ses droits au titre des présentes conditions sans l'accord écrit du Réseau. Les présentes conditions existent en français et en anglais ; la version française prévaut en cas de divergence.",
      ],
    },
  ],
};
