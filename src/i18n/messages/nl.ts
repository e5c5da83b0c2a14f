import type { Messages } from './en';

/** Dutch (Nederlands), polite address (u). */
export const nl: Messages = {
  'page.submit': 'Versturen',
  'page.required_note': 'Velden met {asterisk} zijn verplicht.',
  'page.required_asterisk': 'een sterretje',
  'page.title_error': 'Fout: {title}',
  'page.choose': 'Kies…',
  'page.choose_at_least_one': '(kies er minstens één)',
  'page.files_accepted': 'Toegestaan: {types}.',
  'page.files_choose_again':
    'Bestanden worden niet bewaard als het formulier opnieuw wordt getoond: kies ze opnieuw.',
  'page.honeypot': 'Laat dit veld leeg',
  'field.error_prefix': 'Fout:',
  'field.required': 'Dit veld is verplicht.',
  'field.must_be_checked': 'Vink dit vakje aan.',
  'field.one_value': 'Vul maar één waarde in.',
  'field.not_text': 'Vul tekst in.',
  'field.not_an_option': 'Kies een van de opties („{got}” hoort daar niet bij).',
  'field.not_a_number': 'Vul een getal in.',
  'field.too_small': 'De waarde moet minstens {min} zijn.',
  'field.too_large': 'De waarde mag hoogstens {max} zijn.',
  'field.too_long':
    '{max, plural, one {Gebruik maximaal # teken.} other {Gebruik maximaal # tekens.}}',
  'field.invalid_email': 'Vul een geldig e-mailadres in.',
  'field.invalid_url': 'Vul een adres in dat begint met http:// of https://.',
  'field.invalid_date': 'Vul een datum in als JJJJ-MM-DD.',
  'field.not_a_file': 'Upload hier een bestand.',
  'field.one_file': 'Kies maar één bestand.',
  'field.file_type': 'Het bestandstype van „{filename}” is niet toegestaan ({accepted}).',
  'field.must_not_be_file': 'Dit veld accepteert geen bestand.',
  'field.unknown_field': 'Dit veld hoort niet bij dit formulier.',
  'field.already_submitted':
    'Deze waarde is al gebruikt voor dit formulier: elke waarde kan maar één keer worden verstuurd.',
  'summary.field_heading': 'Er is een probleem',
  'summary.other_heading': 'Uw antwoorden zijn niet verstuurd',
  'summary.field_item': '{label}: {message}',
  'summary.files_dropped': 'De gekozen bestanden zijn niet bewaard: kies ze opnieuw.',
  'summary.captcha_failed':
    'De spamcontrole is niet gelukt. Voer de controle opnieuw uit en verstuur daarna het formulier.',
  'summary.rate_limited':
    'Er kwamen zojuist te veel inzendingen van uw netwerk. Wacht een minuut en verstuur het formulier dan opnieuw.',
  'summary.payload_too_large':
    'De inzending is te groot. Stuur kleinere bestanden of kortere antwoorden.',
  'summary.unavailable':
    'De dienst is even niet beschikbaar. Er is niets verstuurd: wacht een paar seconden en verstuur het formulier dan opnieuw.',
  'summary.other':
    'Uw antwoorden konden niet worden verstuurd. Controleer ze en verstuur het formulier opnieuw.',
  'thanks.default': 'Bedankt! We hebben uw inzending ontvangen.',
  'thanks.send_another': 'Nog een antwoord versturen',
  'thanks.receipt': '{link}: een ondertekend bewijs van wat we hebben ontvangen.',
  'thanks.receipt_link': 'Download uw ontvangstbewijs',
  'closed.not_open_yet': 'Dit formulier is nog niet open: het gaat open op {opens_at} (UTC).',
  'closed.full': 'Dit formulier heeft het maximale aantal inzendingen bereikt en is gesloten.',
  'closed.closed': 'Dit formulier is gesloten en neemt geen inzendingen meer aan.',
  'footer.no_passwords': 'Verstuur nooit wachtwoorden via dit formulier.',
  'footer.hosted': 'Een formulier gehost door Formward.',
  'footer.report_abuse': 'Misbruik melden',
  'manage.link_intro':
    'Bewaar deze privélink om later terug te gaan naar uw inzending. Hij wordt alleen nu getoond: sla hem op of maak er een bladwijzer van. Iedereen met deze link kan uw inzending openen.',
  'manage.link_label': 'Uw link naar deze inzending',
  'manage.view_title': 'Uw inzending',
  'manage.received_at': 'Ontvangen: {received_at} (UTC)',
  'manage.version': 'Versie {version}',
  'manage.edit_until': 'U kunt deze tot {edit_until} (UTC) wijzigen of verwijderen.',
  'manage.edit_closed': 'Deze kan niet meer worden gewijzigd.',
  'manage.no_value': '(leeg)',
  'manage.file_value': '{filename} (bestand, {size, plural, one {# byte} other {# bytes}})',
  'manage.edit_action': 'Uw antwoorden wijzigen',
  'manage.delete_action': 'Deze inzending verwijderen',
  'manage.edit_submit': 'Wijzigingen opslaan',
  'manage.edit_saved': 'Uw wijzigingen zijn opgeslagen.',
  'manage.edit_files_kept':
    'Bestanden die u hebt verstuurd, blijven zoals ze zijn: die kunt u hier niet wijzigen.',
  'manage.edit_closed_title': 'Deze inzending kan niet meer worden gewijzigd',
  'manage.edit_closed_body':
    'De termijn om deze inzending te wijzigen is verstreken, of het formulier is gesloten. Wat u hebt verstuurd, blijft bewaard zoals het was.',
  'manage.delete_title': 'Uw inzending verwijderen?',
  'manage.delete_body':
    'Hiermee wordt wat u hebt verstuurd, inclusief eventuele bestanden, definitief verwijderd. Dit kan niet ongedaan worden gemaakt.',
  'manage.delete_confirm': 'Definitief verwijderen',
  'manage.delete_cancel': 'Behouden',
  'manage.deleted_title': 'Uw inzending is verwijderd',
  'manage.deleted_body': 'Wat u hebt verstuurd, inclusief eventuele bestanden, is verwijderd.',
  'manage.not_found_title': 'Niets gevonden',
  'manage.not_found_body':
    'Deze link leidt nergens naartoe: hij is onjuist, of wat hij opende bestaat niet meer.',
};
