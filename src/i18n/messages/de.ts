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
  'field.already_submitted':
    'Dieser Wert wurde für dieses Formular bereits verwendet. Jeder Wert kann nur einmal gesendet werden.',
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
  'manage.link_intro':
    'Bewahren Sie diesen privaten Link auf, um später zu Ihrer Einsendung zurückzukehren. Er wird nur jetzt angezeigt: Speichern Sie ihn oder legen Sie ein Lesezeichen an. Jede Person mit diesem Link kann Ihre Einsendung öffnen.',
  'manage.link_label': 'Ihr Link zu dieser Einsendung',
  'manage.view_title': 'Ihre Einsendung',
  'manage.received_at': 'Eingegangen: {received_at} (UTC)',
  'manage.version': 'Version {version}',
  'manage.edit_until': 'Sie können sie bis {edit_until} (UTC) ändern oder löschen.',
  'manage.edit_closed': 'Sie kann nicht mehr geändert werden.',
  'manage.no_value': '(leer)',
  'manage.file_value': '{filename} (Datei, {size, plural, one {# Byte} other {# Byte}})',
  'manage.edit_action': 'Ihre Angaben ändern',
  'manage.delete_action': 'Diese Einsendung löschen',
  'manage.edit_submit': 'Änderungen speichern',
  'manage.edit_saved': 'Ihre Änderungen wurden gespeichert.',
  'manage.edit_files_kept':
    'Dateien, die Sie gesendet haben, bleiben unverändert; sie lassen sich hier nicht ändern.',
  'manage.edit_closed_title': 'Diese Einsendung kann nicht mehr geändert werden',
  'manage.edit_closed_body':
    'Die Frist für Änderungen ist abgelaufen oder das Formular wurde geschlossen. Ihre Einsendung bleibt unverändert erhalten.',
  'manage.delete_title': 'Ihre Einsendung löschen?',
  'manage.delete_body':
    'Damit werden Ihre Angaben samt aller Dateien endgültig gelöscht. Dies kann nicht rückgängig gemacht werden.',
  'manage.delete_confirm': 'Endgültig löschen',
  'manage.delete_cancel': 'Behalten',
  'manage.deleted_title': 'Ihre Einsendung wurde gelöscht',
  'manage.deleted_body': 'Ihre Angaben wurden samt aller Dateien gelöscht.',
  'manage.not_found_title': 'Hier ist nichts',
  'manage.not_found_body':
    'Dieser Link führt ins Leere: Er ist falsch, oder die Inhalte sind nicht mehr vorhanden.',
};
