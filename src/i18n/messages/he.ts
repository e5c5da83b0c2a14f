import type { Messages } from './en';

/**
 * Hebrew (עברית), right to left, in the gender-neutral infinitive usual in forms. Values that
 * may be written left to right sit between U+2068 and U+2069 (first-strong isolate).
 */
export const he: Messages = {
  'page.submit': 'שליחה',
  'page.required_note': 'שדות המסומנים {asterisk} הם שדות חובה.',
  'page.required_asterisk': 'בכוכבית',
  'page.title_error': 'שגיאה: {title}',
  'page.choose': 'בחירה…',
  'page.choose_at_least_one': '(יש לבחור לפחות אפשרות אחת)',
  'page.files_accepted': 'סוגי קבצים מותרים: \u2068{types}\u2069.',
  'page.files_choose_again': 'קבצים אינם נשמרים כשהטופס מוצג שוב: יש לבחור אותם מחדש.',
  'page.honeypot': 'נא להשאיר שדה זה ריק',
  'field.error_prefix': 'שגיאה:',
  'field.required': 'זהו שדה חובה.',
  'field.must_be_checked': 'יש לסמן תיבה זו.',
  'field.one_value': 'יש להזין ערך אחד בלבד.',
  'field.not_text': 'יש להזין טקסט.',
  'field.not_an_option': 'יש לבחור אחת מהאפשרויות (״\u2068{got}\u2069״ אינה אחת מהן).',
  'field.not_a_number': 'יש להזין מספר.',
  'field.too_small': 'הערך חייב להיות \u2068{min}\u2069 לפחות.',
  'field.too_large': 'הערך יכול להיות \u2068{max}\u2069 לכל היותר.',
  'field.too_long':
    '{max, plural, one {ניתן להזין תו אחד לכל היותר.} other {ניתן להזין עד # תווים.}}',
  'field.invalid_email': 'יש להזין כתובת דוא״ל תקינה.',
  'field.invalid_url': 'יש להזין כתובת שמתחילה ב־\u2068http://\u2069 או ב־\u2068https://\u2069.',
  'field.invalid_date': 'יש להזין תאריך בתבנית \u2068YYYY-MM-DD\u2069.',
  'field.not_a_file': 'יש לשלוח שדה זה כקובץ.',
  'field.one_file': 'יש לבחור קובץ אחד בלבד.',
  'field.file_type': 'סוג הקובץ ״\u2068{filename}\u2069״ אינו מותר (\u2068{accepted}\u2069).',
  'field.must_not_be_file': 'שדה זה אינו מקבל קבצים.',
  'field.unknown_field': 'שדה זה אינו חלק מהטופס.',
  'summary.field_heading': 'יש בעיה',
  'summary.other_heading': 'התשובות שלך לא נשלחו',
  'summary.field_item': '\u2068{label}\u2069: {message}',
  'summary.files_dropped': 'הקבצים שנבחרו לא נשמרו: יש לבחור אותם מחדש.',
  'summary.captcha_failed': 'בדיקת הספאם לא עברה. יש להשלים אותה שוב ואז לשלוח את הטופס.',
  'summary.rate_limited':
    'הגיעו יותר מדי שליחות מהרשת שלך ממש עכשיו. יש להמתין דקה ואז לשלוח את הטופס שוב.',
  'summary.payload_too_large': 'השליחה גדולה מדי. יש לשלוח קבצים קטנים יותר או תשובות קצרות יותר.',
  'summary.unavailable':
    'השירות אינו זמין כרגע. דבר לא נשלח: יש להמתין כמה שניות ואז לשלוח את הטופס שוב.',
  'summary.other': 'לא ניתן היה לשלוח את התשובות שלך. יש לבדוק אותן ולשלוח את הטופס שוב.',
  'thanks.default': 'תודה! התשובה שלך התקבלה.',
  'thanks.send_another': 'שליחת תשובה נוספת',
  'thanks.receipt': '{link}: תיעוד חתום של מה שהתקבל.',
  'thanks.receipt_link': 'הורדת אישור הקבלה',
  'closed.not_open_yet': 'הטופס עדיין לא פתוח: הוא ייפתח ב־\u2068{opens_at}\u2069 (UTC).',
  'closed.full': 'הטופס הגיע למספר התשובות המרבי ונסגר.',
  'closed.closed': 'הטופס סגור ואינו מקבל עוד תשובות.',
  'footer.no_passwords': 'לעולם אין לשלוח סיסמאות דרך טופס זה.',
  'footer.hosted': 'טופס המתארח ב־\u2068Formward\u2069.',
  'footer.report_abuse': 'דיווח על שימוש לרעה',
};
