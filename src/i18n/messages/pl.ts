import type { Messages } from './en';

/** Polish (Polski), the impersonal polite forms usual in forms. */
export const pl: Messages = {
  'page.submit': 'Wyślij',
  'page.required_note': 'Pola oznaczone {asterisk} są wymagane.',
  'page.required_asterisk': 'gwiazdką',
  'page.title_error': 'Błąd: {title}',
  'page.choose': 'Wybierz…',
  'page.choose_at_least_one': '(wybierz co najmniej jedną)',
  'page.files_accepted': 'Dozwolone typy: {types}.',
  'page.files_choose_again':
    'Pliki nie są zachowywane, gdy formularz jest wyświetlany ponownie: wybierz je jeszcze raz.',
  'page.honeypot': 'Pozostaw to pole puste',
  'field.error_prefix': 'Błąd:',
  'field.required': 'To pole jest wymagane.',
  'field.must_be_checked': 'Zaznacz to pole.',
  'field.one_value': 'Podaj tylko jedną wartość.',
  'field.not_text': 'Wpisz tekst.',
  'field.not_an_option': 'Wybierz jedną z dostępnych opcji („{got}” nie jest jedną z nich).',
  'field.not_a_number': 'Wpisz liczbę.',
  'field.too_small': 'Wartość musi wynosić co najmniej {min}.',
  'field.too_large': 'Wartość może wynosić najwyżej {max}.',
  'field.too_long':
    '{max, plural, one {Wpisz najwyżej # znak.} few {Wpisz najwyżej # znaki.} many {Wpisz najwyżej # znaków.} other {Wpisz najwyżej # znaku.}}',
  'field.invalid_email': 'Wpisz poprawny adres e-mail.',
  'field.invalid_url': 'Wpisz adres zaczynający się od http:// lub https://.',
  'field.invalid_date': 'Wpisz datę w formacie RRRR-MM-DD.',
  'field.not_a_file': 'To pole trzeba wysłać jako plik.',
  'field.one_file': 'Wybierz tylko jeden plik.',
  'field.file_type': 'Typ pliku „{filename}” nie jest dozwolony ({accepted}).',
  'field.must_not_be_file': 'To pole nie przyjmuje plików.',
  'field.unknown_field': 'To pole nie należy do tego formularza.',
  'field.already_submitted':
    'Ta wartość została już użyta w tym formularzu: każdą wartość można wysłać tylko raz.',
  'summary.field_heading': 'Wystąpił problem',
  'summary.other_heading': 'Twoje odpowiedzi nie zostały wysłane',
  'summary.field_item': '{label}: {message}',
  'summary.files_dropped': 'Wybrane pliki nie zostały zachowane: wybierz je jeszcze raz.',
  'summary.captcha_failed':
    'Weryfikacja antyspamowa nie powiodła się. Wykonaj ją ponownie, a potem wyślij formularz.',
  'summary.rate_limited':
    'Z Twojej sieci przyszło przed chwilą zbyt wiele zgłoszeń. Odczekaj minutę i wyślij formularz ponownie.',
  'summary.payload_too_large':
    'Zgłoszenie jest za duże. Wyślij mniejsze pliki lub krótsze odpowiedzi.',
  'summary.unavailable':
    'Usługa jest chwilowo niedostępna. Nic nie zostało wysłane: odczekaj kilka sekund i wyślij formularz ponownie.',
  'summary.other':
    'Nie udało się wysłać Twoich odpowiedzi. Sprawdź je i wyślij formularz ponownie.',
  'thanks.default': 'Dziękujemy! Twoje zgłoszenie zostało przyjęte.',
  'thanks.send_another': 'Wyślij kolejną odpowiedź',
  'thanks.receipt': '{link}: podpisany zapis tego, co zostało przyjęte.',
  'thanks.receipt_link': 'Pobierz potwierdzenie',
  'closed.not_open_yet':
    'Ten formularz nie jest jeszcze otwarty: zostanie otwarty {opens_at} (UTC).',
  'closed.full': 'Ten formularz osiągnął maksymalną liczbę zgłoszeń i jest zamknięty.',
  'closed.closed': 'Ten formularz jest zamknięty i nie przyjmuje już zgłoszeń.',
  'footer.no_passwords': 'Nigdy nie podawaj haseł w tym formularzu.',
  'footer.hosted': 'Formularz udostępniony przez Formward.',
  'footer.report_abuse': 'Zgłoś nadużycie',
  'manage.link_intro':
    'Zachowaj ten prywatny link, aby wrócić do swojego zgłoszenia. Jest wyświetlany tylko teraz: zapisz go lub dodaj do zakładek. Każdy, kto ma ten link, może otworzyć Twoje zgłoszenie.',
  'manage.link_label': 'Twój link do tego zgłoszenia',
  'manage.view_title': 'Twoje zgłoszenie',
  'manage.received_at': 'Przyjęto: {received_at} (UTC)',
  'manage.version': 'Wersja {version}',
  'manage.edit_until': 'Możesz je zmienić lub usunąć do {edit_until} (UTC).',
  'manage.edit_closed': 'Nie można go już zmienić.',
  'manage.no_value': '(puste)',
  'manage.file_value':
    '{filename} (plik, {size, plural, one {# bajt} few {# bajty} many {# bajtów} other {# bajta}})',
  'manage.edit_action': 'Zmień odpowiedzi',
  'manage.delete_action': 'Usuń to zgłoszenie',
  'manage.edit_submit': 'Zapisz zmiany',
  'manage.edit_saved': 'Zmiany zostały zapisane.',
  'manage.edit_files_kept': 'Wysłane pliki pozostają bez zmian: nie można ich tu zmienić.',
  'manage.edit_closed_title': 'Tego zgłoszenia nie można już zmienić',
  'manage.edit_closed_body':
    'Czas na zmianę tego zgłoszenia minął lub formularz został zamknięty. Wysłane dane pozostają bez zmian.',
  'manage.delete_title': 'Usunąć zgłoszenie?',
  'manage.delete_body':
    'Wysłane dane wraz z plikami zostaną trwale usunięte. Tej operacji nie można cofnąć.',
  'manage.delete_confirm': 'Usuń trwale',
  'manage.delete_cancel': 'Zachowaj',
  'manage.deleted_title': 'Zgłoszenie zostało usunięte',
  'manage.deleted_body': 'Wysłane dane wraz z plikami zostały usunięte.',
  'manage.not_found_title': 'Nic tu nie ma',
  'manage.not_found_body':
    'Ten link nie prowadzi do niczego: jest błędny albo to, do czego prowadził, już nie istnieje.',
};
