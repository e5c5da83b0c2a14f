import type { Messages } from './en';

/** German (Deutsch), formal address (Sie). */
export const de: Messages = {
  'page.submit': 'Senden',
  'page.required_note': 'Mit {asterisk} markierte Felder sind Pflichtfelder.',
  'page.required_asterisk': 'Sternchen',
  'page.title_error': 'Fehler: {title}',
  'page.choose': 'Bitte wählen…',
  'page.choose_at_least_one': '(mindestens eine Auswahl)',
  'page.files_accepted': 'Erlaubte Dateitypen: {types}.',
  'page.files_choose_again':
    'Dateien werden nicht übernommen, wenn das Formular erneut angezeigt wird. Bitte wählen Sie sie noch einmal aus.',
  'page.honeypot': 'Dieses Feld bitte leer lassen',
  'field.error_prefix': 'Fehler:',
  'field.required': 'Bitte füllen Sie dieses Feld aus.',
  'field.must_be_checked': 'Bitte setzen Sie hier ein Häkchen.',
  'field.one_value': 'Bitte geben Sie nur einen Wert an.',
  'field.not_text': 'Bitte geben Sie Text ein.',
  'field.not_an_option':
    'Bitte wählen Sie eine der angebotenen Optionen („{got}“ gehört nicht dazu).',
  'field.not_a_number': 'Bitte geben Sie eine Zahl ein.',
  'field.too_small': 'Der Wert muss mindestens {min} betragen.',
  'field.too_large': 'Der Wert darf höchstens {max} betragen.',
  'field.too_long':
    '{max, plural, one {Bitte geben Sie höchstens # Zeichen ein.} other {Bitte geben Sie höchstens # Zeichen ein.}}',
  'field.invalid_email': 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  'field.invalid_url': 'Bitte geben Sie eine Adresse ein, die mit http:// oder https:// beginnt.',
  'field.invalid_date': 'Bitte geben Sie ein Datum im Format JJJJ-MM-TT ein.',
  'field.not_a_file': 'Bitte laden Sie hier eine Datei hoch.',
  'field.one_file': 'Bitte wählen Sie nur eine Datei aus.',
  'field.file_type': '„{filename}“ hat keinen erlaubten Dateityp ({accepted}).',
  'field.must_not_be_file': 'Bitte laden Sie hier keine Datei hoch.',
  'field.unknown_field': 'Dieses Feld gehört nicht zu diesem Formular.',
  'summary.field_heading': 'Bitte prüfen Sie Ihre Angaben',
  'summary.other_heading': 'Ihre Angaben wurden nicht gesendet',
  'summary.field_item': '{label}: {message}',
  'summary.files_dropped':
    'Die ausgewählten Dateien wurden nicht übernommen. Bitte wählen Sie sie noch einmal aus.',
  'summary.captcha_failed':
    'Die Spam-Prüfung war nicht erfolgreich. Bitte führen Sie sie erneut durch und senden Sie das Formular dann ab.',
  'summary.rate_limited':
    'Aus Ihrem Netzwerk kamen gerade zu viele Einsendungen. Bitte warten Sie eine Minute und senden Sie das Formular dann erneut.',
  'summary.payload_too_large':
    'Die Einsendung ist zu groß. Bitte senden Sie kleinere Dateien oder kürzere Antworten.',
  'summary.unavailable':
    'Der Dienst ist kurzzeitig nicht erreichbar. Es wurde nichts gesendet. Bitte warten Sie einige Sekunden und senden Sie das Formular dann erneut.',
  'summary.other':
    'Ihre Angaben konnten nicht gesendet werden. Bitte prüfen Sie sie und senden Sie das Formular erneut.',
  'thanks.default': 'Vielen Dank! Ihre Angaben sind bei uns eingegangen.',
  'thanks.send_another': 'Eine weitere Antwort senden',
  'thanks.receipt': '{link}: ein signierter Nachweis darüber, was bei uns eingegangen ist.',
  'thanks.receipt_link': 'Empfangsbestätigung herunterladen',
  'closed.not_open_yet': 'Dieses Formular ist noch nicht geöffnet. Es öffnet am {opens_at} (UTC).',
  'closed.full':
    'Dieses Formular hat die maximale Anzahl an Einsendungen erreicht und ist geschlossen.',
  'closed.closed': 'Dieses Formular ist geschlossen und nimmt keine Einsendungen mehr an.',
  'footer.no_passwords': 'Geben Sie über dieses Formular niemals Passwörter ein.',
  'footer.hosted': 'Ein Formular, bereitgestellt mit Formward.',
  'footer.report_abuse': 'Missbrauch melden',
};
