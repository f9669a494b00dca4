/**
 * A French catalogue for the generated pages, as a user writes one into their front end's
 * src/custom/messages.ts (frontend.test.ts copies this file there, its import pointing at the
 * project's own src/generated/runtime/messages). Typed `Messages`: the repository's `tsc`
 * checks it is complete, as the project's does.
 */
import type {
  Messages,
  Translations,
} from "../../src/targets/fe/runtime/messages.js";

/** "Article" → "article": a label inside a sentence. */
const lower = (label: string) => label.charAt(0).toLowerCase() + label.slice(1);

/** "1 article", "3 articles" (the config's labels are English: they stay as configured). */
const counted = (count: number, singular: string, plural: string) =>
  `${count} ${count === 1 ? lower(singular) : plural.toLowerCase()}`;

const fr: Messages = {
  skipToContent: "Aller au contenu",
  menu: "Menu",
  resources: "Ressources",
  loading: "Chargement…",
  notFound: "Introuvable",
  notFoundText:
    "Il n’y a rien ici. La page a peut-être été supprimée, ou l’adresse est erronée.",
  backToStart: "Retour à l’accueil",
  couldNotLoad: (reason) => `Impossible de charger cette page : ${reason}`,
  tryAgain: "Réessayer",
  notifications: "Notifications",
  dismiss: "Fermer",
  signIn: "Se connecter",
  signOut: "Se déconnecter",
  signedInAs: (username) => `Connecté en tant que ${username}`,
  username: "Nom d’utilisateur",
  password: "Mot de passe",
  wrongCredentials: "Nom d’utilisateur ou mot de passe incorrect.",
  notAllowed: "Accès refusé",
  notAllowedText: "Votre compte ne peut pas utiliser cette page.",
  listCaption: (plural, page) => `${plural}, page ${page}`,
  newRow: (label) => `Nouveau : ${lower(label)}`,
  search: "Rechercher",
  searchRows: (plural) => `Rechercher : ${plural.toLowerCase()}`,
  nothingToShow: "Rien à afficher.",
  orderBy: (column) => `Trier par ${column}`,
  pages: "Pages",
  previous: "Précédente",
  next: "Suivante",
  pageNumber: (page) => `Page ${page}`,
  pageOfTotal: (page, pages, total) =>
    `Page ${page} sur ${pages}, ${total} ${total <= 1 ? "ligne" : "lignes"}`,
  rowsPerPage: "Lignes par page",
  columns: "Colonnes",
  columnsShown: "Colonnes affichées",
  savedViews: "Vues enregistrées",
  view: "Vue",
  chooseView: "Choisir une vue",
  noViews: "Aucune vue enregistrée",
  applyView: "Appliquer la vue",
  deleteView: "Supprimer la vue…",
  deleteViewAsk: (name) => `Supprimer la vue « ${name} » ?`,
  viewDeleted: (name) => `Vue « ${name} » supprimée.`,
  viewName: "Nom de la vue",
  saveView: "Enregistrer la vue actuelle",
  viewSaved: (name) => `Vue « ${name} » enregistrée.`,
  exportCsv: "Exporter en CSV",
  exporting: (rows) => `${rows} lignes…`,
  exported: (rows) => `${rows} lignes exportées.`,
  exportFailed: (reason) => `Échec de l’export : ${reason}`,
  selectAll: "Sélectionner toutes les lignes de cette page",
  selectRow: (name) => `Sélectionner ${name}`,
  selected: (count, singular, plural) =>
    `${counted(count, singular, plural)} sélectionné(s)`,
  deleteSelected: "Supprimer la sélection…",
  deleteRows: (count, singular, plural) =>
    `Supprimer ${counted(count, singular, plural)} ?`,
  deletedRows: (count, singular, plural) =>
    `${counted(count, singular, plural)} supprimé(s).`,
  notDeleted: (count, singular, plural) =>
    `${counted(count, singular, plural)} n’ont pas pu être supprimé(s) :`,
  willBeDeleted: "Ces lignes seront supprimées. C’est irréversible.",
  runOnRows: (action, count, singular, plural) =>
    `${action} : ${counted(count, singular, plural)} ?`,
  ranOnRows: (action, count, singular, plural) =>
    `${action} : fait pour ${counted(count, singular, plural)}.`,
  failedOnRows: (action, count, singular, plural) =>
    `${action} a échoué pour ${counted(count, singular, plural)} :`,
  runsOneByOne: (action) =>
    `${action} s’applique à chacune, l’une après l’autre.`,
  filters: "Filtres",
  filtersSet: (count) => `Filtres (${count} actifs)`,
  filterRows: (plural) => `Filtrer : ${plural.toLowerCase()}`,
  clearFilters: "Effacer les filtres",
  any: "Tous",
  not: "sauf",
  fieldNot: (field) => `${field} : sauf`,
  fieldFrom: (field) => `${field} à partir de`,
  fieldTo: (field) => `${field} jusqu’à`,
  fieldAnyOf: (field) => `${field} : l’un de`,
  fieldIs: (field) => `${field} est`,
  isSet: "renseigné",
  isEmpty: "vide",
  yes: "Oui",
  no: "Non",
  notSet: "Non renseigné",
  noMatches: "Aucun résultat",
  chosen: (field) => `${field} : choisis`,
  remove: (name) => `Retirer ${name}`,
  edit: "Modifier",
  editRow: (label) => `Modifier : ${lower(label)}`,
  editTitle: (title) => `Modifier ${title}`,
  delete: "Supprimer",
  deleteRow: (label) => `Supprimer : ${lower(label)} ?`,
  willDelete: (name) => `« ${name} » sera supprimé. C’est irréversible.`,
  deleted: (label) => `${label} : supprimé.`,
  created: (label) => `${label} : créé.`,
  saved: (label) => `${label} : enregistré.`,
  create: "Créer",
  save: "Enregistrer",
  saving: "Enregistrement…",
  cancel: "Annuler",
  run: "Lancer",
  actions: "Actions",
  askRun: (action) => `${action} ?`,
  runNow: (action) => `Lancer « ${action} » maintenant ?`,
  done: (action) => `${action} : fait.`,
  result: "Résultat :",
  failed: (action, reason) => `${action} : ${reason}`,
  leaveUnsaved: "Quitter sans enregistrer ?",
  leave: "Quitter",
  unsavedText:
    "Vos modifications sur cette page ne sont pas encore enregistrées.",
  checkFields: "Vérifiez les champs signalés ci-dessous.",
  required: "Obligatoire.",
  enterNumber: "Saisissez un nombre.",
  enterDateTime: "Saisissez une date et une heure.",
  enterJson: 'Saisissez un objet JSON, comme {"clé": "valeur"}.',
  file: "Fichier",
  upload: "Téléverser",
  uploadRow: (label) => `Téléverser : ${lower(label)}`,
  uploadProgress: "Progression du téléversement",
  uploading: (percent) => `Téléversement… ${percent} %`,
  uploaded: (label) => `${label} : téléversé.`,
  chooseFile: "Choisissez un fichier.",
  download: "Télécharger",
  downloadFile: (name) => `Télécharger ${name}`,
  downloading: "Téléchargement…",
  storageRefused: (status) =>
    `Le stockage des fichiers a refusé le fichier (${status}).`,
  storageUnreachable: "Le stockage des fichiers est injoignable.",
  unreachable: "Le serveur est injoignable.",
  pleaseSignIn: "Veuillez vous connecter.",
  forbidden: "Vous n’avez pas le droit de faire cela.",
  missing: "Introuvable.",
  conflict: "Cela entre en conflit avec des données existantes.",
  invalid: "Certaines valeurs ne sont pas valides.",
  answered: (status) => `Le serveur a répondu ${status}.`,
};

export const translations = { fr } satisfies Translations;
