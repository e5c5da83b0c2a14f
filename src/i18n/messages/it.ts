import type { Messages } from './en';

/** Italian (Italiano), polite address (Lei). */
export const it: Messages = {
  'page.submit': 'Invia',
  'page.required_note': 'I campi contrassegnati {asterisk} sono obbligatori.',
  'page.required_asterisk': 'con un asterisco',
  'page.title_error': 'Errore: {title}',
  'page.choose': 'Selezionare…',
  'page.choose_at_least_one': '(selezionarne almeno una)',
  'page.files_accepted': 'Formati accettati: {types}.',
  'page.files_choose_again':
    'I file non vengono conservati quando il modulo viene mostrato di nuovo: li selezioni di nuovo.',
  'page.honeypot': 'Lasciare vuoto questo campo',
  'field.error_prefix': 'Errore:',
  'field.required': 'Questo campo è obbligatorio.',
  'field.must_be_checked': 'Selezioni questa casella.',
  'field.one_value': 'È ammesso un solo valore.',
  'field.not_text': 'Inserisca del testo.',
  'field.not_an_option': 'Scelga una delle opzioni proposte («{got}» non è tra queste).',
  'field.not_a_number': 'Inserisca un numero.',
  'field.too_small': 'Il valore deve essere almeno {min}.',
  'field.too_large': 'Il valore deve essere al massimo {max}.',
  'field.too_long':
    '{max, plural, one {Inserisca al massimo # carattere.} other {Inserisca al massimo # caratteri.}}',
  'field.invalid_email': 'Inserisca un indirizzo email valido.',
  'field.invalid_url': 'Inserisca un indirizzo che inizi con http:// o https://.',
  'field.invalid_date': 'Inserisca una data nel formato AAAA-MM-GG.',
  'field.not_a_file': 'Questo campo va inviato come file.',
  'field.one_file': 'Selezioni un solo file.',
  'field.file_type': 'Il tipo del file «{filename}» non è consentito ({accepted}).',
  'field.must_not_be_file': 'Questo campo non accetta file.',
  'field.unknown_field': 'Questo campo non fa parte del modulo.',
  'field.already_submitted':
    'Questo valore è già stato usato per questo modulo: ogni valore può essere inviato una sola volta.',
  'summary.field_heading': 'C’è un problema',
  'summary.other_heading': 'Le sue risposte non sono state inviate',
  'summary.field_item': '{label}: {message}',
  'summary.files_dropped': 'I file scelti non sono stati conservati: li selezioni di nuovo.',
  'summary.captcha_failed':
    'Il controllo antispam non è stato superato. Lo completi di nuovo, poi invii il modulo.',
  'summary.rate_limited':
    'Sono arrivati troppi invii dalla sua rete in questo momento. Attenda un minuto, poi invii di nuovo il modulo.',
  'summary.payload_too_large':
    'L’invio è troppo grande. Invii file più piccoli o risposte più brevi.',
  'summary.unavailable':
    'Il servizio è momentaneamente non disponibile. Non è stato inviato nulla: attenda qualche secondo, poi invii di nuovo il modulo.',
  'summary.other':
    'Non è stato possibile inviare le sue risposte. Le controlli, poi invii di nuovo il modulo.',
  'thanks.default': 'Grazie! Abbiamo ricevuto la sua risposta.',
  'thanks.send_another': 'Invia un’altra risposta',
  'thanks.receipt': '{link}: una registrazione firmata di ciò che è stato ricevuto.',
  'thanks.receipt_link': 'Scarica la ricevuta',
  'closed.not_open_yet': 'Questo modulo non è ancora aperto: aprirà il {opens_at} (UTC).',
  'closed.full': 'Questo modulo ha raggiunto il numero massimo di risposte ed è chiuso.',
  'closed.closed': 'Questo modulo è chiuso e non accetta più risposte.',
  'footer.no_passwords': 'Non inviare mai password tramite questo modulo.',
  'footer.hosted': 'Un modulo ospitato da Formward.',
  'footer.report_abuse': 'Segnala un abuso',
  'manage.link_intro':
    'Conservi questo link privato per tornare alla sua risposta. Viene mostrato solo ora: lo salvi o lo aggiunga ai segnalibri. Chiunque abbia il link può aprire la sua risposta.',
  'manage.link_label': 'Il suo link a questa risposta',
  'manage.view_title': 'La sua risposta',
  'manage.received_at': 'Ricevuta: {received_at} (UTC)',
  'manage.version': 'Versione {version}',
  'manage.edit_until': 'Può modificarla o eliminarla fino al {edit_until} (UTC).',
  'manage.edit_closed': 'Non è più possibile modificarla.',
  'manage.no_value': '(vuoto)',
  'manage.file_value': '{filename} (file, {size, plural, one {# byte} other {# byte}})',
  'manage.edit_action': 'Modifica le risposte',
  'manage.delete_action': 'Elimina questa risposta',
  'manage.edit_submit': 'Salva le modifiche',
  'manage.edit_saved': 'Le modifiche sono state salvate.',
  'manage.edit_files_kept': 'I file inviati restano invariati: non è possibile modificarli qui.',
  'manage.edit_closed_title': 'Questa risposta non può più essere modificata',
  'manage.edit_closed_body':
    'Il tempo per modificare questa risposta è scaduto oppure il modulo è stato chiuso. Quanto inviato resta invariato.',
  'manage.delete_title': 'Eliminare la sua risposta?',
  'manage.delete_body':
    'Quanto inviato, compresi eventuali file, verrà eliminato definitivamente. L’operazione non può essere annullata.',
  'manage.delete_confirm': 'Elimina definitivamente',
  'manage.delete_cancel': 'Mantieni',
  'manage.deleted_title': 'La sua risposta è stata eliminata',
  'manage.deleted_body': 'Quanto inviato, compresi eventuali file, è stato eliminato.',
  'manage.not_found_title': 'Nessun contenuto',
  'manage.not_found_body':
    'Questo link non porta a nulla: è errato oppure il contenuto non esiste più.',
};
