import type { Messages } from './en';

/** French (Français), polite address (vous). */
export const fr: Messages = {
  'page.submit': 'Envoyer',
  'page.required_note': 'Les champs marqués {asterisk} sont obligatoires.',
  'page.required_asterisk': 'd’un astérisque',
  'page.title_error': 'Erreur : {title}',
  'page.choose': 'Choisissez…',
  'page.choose_at_least_one': '(choisissez-en au moins un)',
  'page.files_accepted': 'Formats acceptés : {types}.',
  'page.files_choose_again':
    'Les fichiers ne sont pas conservés quand le formulaire s’affiche de nouveau : choisissez-les à nouveau.',
  'page.honeypot': 'Laissez ce champ vide',
  'field.error_prefix': 'Erreur :',
  'field.required': 'Ce champ est obligatoire.',
  'field.must_be_checked': 'Veuillez cocher cette case.',
  'field.one_value': 'Une seule valeur est acceptée.',
  'field.not_text': 'Veuillez saisir du texte.',
  'field.not_an_option':
    'Veuillez choisir l’une des options proposées (« {got} » n’en fait pas partie).',
  'field.not_a_number': 'Veuillez saisir un nombre.',
  'field.too_small': 'La valeur doit être d’au moins {min}.',
  'field.too_large': 'La valeur doit être d’au plus {max}.',
  'field.too_long':
    '{max, plural, one {Veuillez saisir au plus # caractère.} other {Veuillez saisir au plus # caractères.}}',
  'field.invalid_email': 'Veuillez saisir une adresse e-mail valide.',
  'field.invalid_url': 'Veuillez saisir une adresse commençant par http:// ou https://.',
  'field.invalid_date': 'Veuillez saisir une date au format AAAA-MM-JJ.',
  'field.not_a_file': 'Veuillez envoyer un fichier dans ce champ.',
  'field.one_file': 'Veuillez choisir un seul fichier.',
  'field.file_type': 'Le type du fichier « {filename} » n’est pas accepté ({accepted}).',
  'field.must_not_be_file': 'Ce champ n’accepte pas de fichier.',
  'field.unknown_field': 'Ce champ ne fait pas partie de ce formulaire.',
  'field.already_submitted':
    'Cette valeur a déjà été utilisée pour ce formulaire : chaque valeur ne peut être envoyée qu’une seule fois.',
  'summary.field_heading': 'Un problème est survenu',
  'summary.other_heading': 'Vos réponses n’ont pas été envoyées',
  'summary.field_item': '{label} : {message}',
  'summary.files_dropped':
    'Les fichiers choisis n’ont pas été conservés : choisissez-les à nouveau.',
  'summary.captcha_failed':
    'La vérification anti-spam n’a pas abouti. Effectuez-la de nouveau, puis envoyez le formulaire.',
  'summary.rate_limited':
    'Trop d’envois proviennent de votre réseau en ce moment. Patientez une minute, puis renvoyez le formulaire.',
  'summary.payload_too_large':
    'L’envoi est trop volumineux. Envoyez des fichiers plus petits ou des réponses plus courtes.',
  'summary.unavailable':
    'Le service est momentanément indisponible. Rien n’a été envoyé : patientez quelques secondes, puis renvoyez le formulaire.',
  'summary.other':
    'Vos réponses n’ont pas pu être envoyées. Vérifiez-les, puis renvoyez le formulaire.',
  'thanks.default': 'Merci ! Votre réponse a bien été reçue.',
  'thanks.send_another': 'Envoyer une autre réponse',
  'thanks.receipt': '{link} : une preuve signée de ce qui a été reçu.',
  'thanks.receipt_link': 'Télécharger votre accusé de réception',
  'closed.not_open_yet': 'Ce formulaire n’est pas encore ouvert : il ouvrira le {opens_at} (UTC).',
  'closed.full': 'Ce formulaire a atteint le nombre maximal de réponses et est désormais fermé.',
  'closed.closed': 'Ce formulaire est fermé et n’accepte plus de réponses.',
  'footer.no_passwords': 'N’envoyez jamais de mot de passe par ce formulaire.',
  'footer.hosted': 'Un formulaire hébergé par Formward.',
  'footer.report_abuse': 'Signaler un abus',
  'manage.link_intro':
    'Conservez ce lien privé pour revenir à votre réponse. Il ne s’affiche qu’une seule fois : enregistrez-le ou ajoutez-le à vos favoris. Toute personne disposant de ce lien peut ouvrir votre réponse.',
  'manage.link_label': 'Votre lien vers cette réponse',
  'manage.view_title': 'Votre réponse',
  'manage.received_at': 'Reçue le {received_at} (UTC)',
  'manage.version': 'Version {version}',
  'manage.edit_until': 'Vous pouvez la modifier ou la supprimer jusqu’au {edit_until} (UTC).',
  'manage.edit_closed': 'Elle ne peut plus être modifiée.',
  'manage.no_value': '(vide)',
  'manage.file_value': '{filename} (fichier, {size, plural, one {# octet} other {# octets}})',
  'manage.edit_action': 'Modifier vos réponses',
  'manage.delete_action': 'Supprimer cette réponse',
  'manage.edit_submit': 'Enregistrer les modifications',
  'manage.edit_saved': 'Vos modifications ont été enregistrées.',
  'manage.edit_files_kept':
    'Les fichiers envoyés restent tels quels : ils ne peuvent pas être modifiés ici.',
  'manage.edit_closed_title': 'Cette réponse ne peut plus être modifiée',
  'manage.edit_closed_body':
    'Le délai de modification est dépassé ou le formulaire est fermé. Votre réponse est conservée telle quelle.',
  'manage.delete_title': 'Supprimer votre réponse ?',
  'manage.delete_body':
    'Votre réponse et ses fichiers éventuels seront supprimés définitivement. Cette action est irréversible.',
  'manage.delete_confirm': 'Supprimer définitivement',
  'manage.delete_cancel': 'La conserver',
  'manage.deleted_title': 'Votre réponse a été supprimée',
  'manage.deleted_body': 'Votre réponse et ses fichiers éventuels ont été supprimés.',
  'manage.not_found_title': 'Page introuvable',
  'manage.not_found_body':
    'Ce lien ne mène nulle part : il est erroné, ou son contenu n’existe plus.',
};
