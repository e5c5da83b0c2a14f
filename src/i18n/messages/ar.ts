import type { Messages } from './en';

/**
 * Arabic (العربية), Modern Standard, right to left. Values that may be written left to right
 * (names, types, addresses) sit between U+2068 and U+2069 (first-strong isolate), so they do
 * not reorder the sentence around them.
 */
export const ar: Messages = {
  'page.submit': 'إرسال',
  'page.required_note': 'الحقول المميّزة {asterisk} إلزامية.',
  'page.required_asterisk': 'بعلامة النجمة',
  'page.title_error': 'خطأ: {title}',
  'page.choose': 'اختر خيارًا…',
  'page.choose_at_least_one': '(اختر خيارًا واحدًا على الأقل)',
  'page.files_accepted': 'الأنواع المقبولة: \u2068{types}\u2069.',
  'page.files_choose_again': 'لا يُحتفظ بالملفات عند إعادة عرض النموذج: يُرجى اختيارها مرة أخرى.',
  'page.honeypot': 'اترك هذا الحقل فارغًا',
  'field.error_prefix': 'خطأ:',
  'field.required': 'هذا الحقل مطلوب.',
  'field.must_be_checked': 'يُرجى تحديد هذا المربع.',
  'field.one_value': 'يُرجى إدخال قيمة واحدة فقط.',
  'field.not_text': 'يُرجى إدخال نص.',
  'field.not_an_option': 'يُرجى اختيار أحد الخيارات المتاحة («\u2068{got}\u2069» ليس منها).',
  'field.not_a_number': 'يُرجى إدخال رقم.',
  'field.too_small': 'يجب ألا تقل القيمة عن \u2068{min}\u2069.',
  'field.too_large': 'يجب ألا تزيد القيمة على \u2068{max}\u2069.',
  'field.too_long':
    '{max, plural, zero {يُرجى ألا يتجاوز النص # حرف.} one {يُرجى ألا يتجاوز النص حرفًا واحدًا.} two {يُرجى ألا يتجاوز النص حرفين.} few {يُرجى ألا يتجاوز النص # أحرف.} many {يُرجى ألا يتجاوز النص # حرفًا.} other {يُرجى ألا يتجاوز النص # حرف.}}',
  'field.invalid_email': 'يُرجى إدخال عنوان بريد إلكتروني صالح.',
  'field.invalid_url': 'يُرجى إدخال عنوان يبدأ بـ \u2068http://\u2069 أو \u2068https://\u2069.',
  'field.invalid_date': 'يُرجى إدخال التاريخ بالصيغة \u2068YYYY-MM-DD\u2069.',
  'field.not_a_file': 'يجب إرسال هذا الحقل كملف.',
  'field.one_file': 'يُرجى اختيار ملف واحد فقط.',
  'field.file_type': 'نوع الملف «\u2068{filename}\u2069» غير مقبول (\u2068{accepted}\u2069).',
  'field.must_not_be_file': 'لا يقبل هذا الحقل الملفات.',
  'field.unknown_field': 'هذا الحقل ليس من حقول هذا النموذج.',
  'field.already_submitted':
    'سبق استخدام هذه القيمة في هذا النموذج، ولا يمكن إرسال كل قيمة إلا مرة واحدة.',
  'summary.field_heading': 'توجد مشكلة',
  'summary.other_heading': 'لم تُرسَل إجاباتك',
  'summary.field_item': '\u2068{label}\u2069: {message}',
  'summary.files_dropped': 'لم يُحتفظ بالملفات التي اخترتها: يُرجى اختيارها مرة أخرى.',
  'summary.captcha_failed':
    'لم يُجتز التحقق من الرسائل المزعجة. يُرجى إكماله مرة أخرى ثم إرسال النموذج.',
  'summary.rate_limited':
    'وصل عدد كبير جدًا من الإرسالات من شبكتك للتو. يُرجى الانتظار دقيقة ثم إرسال النموذج مرة أخرى.',
  'summary.payload_too_large': 'حجم الإرسال كبير جدًا. يُرجى إرسال ملفات أصغر أو إجابات أقصر.',
  'summary.unavailable':
    'الخدمة غير متاحة مؤقتًا. لم يُرسَل أي شيء: يُرجى الانتظار بضع ثوانٍ ثم إرسال النموذج مرة أخرى.',
  'summary.other': 'تعذّر إرسال إجاباتك. يُرجى مراجعتها ثم إرسال النموذج مرة أخرى.',
  'thanks.default': 'شكرًا لك! تم استلام إجاباتك.',
  'thanks.send_another': 'إرسال إجابة أخرى',
  'thanks.receipt': '{link}: سجل موقَّع بما تم استلامه.',
  'thanks.receipt_link': 'تنزيل الإيصال',
  'closed.not_open_yet': 'هذا النموذج غير مفتوح بعد: سيُفتح في \u2068{opens_at}\u2069 (بتوقيت UTC).',
  'closed.full': 'بلغ هذا النموذج الحد الأقصى لعدد الإجابات، وهو مغلق الآن.',
  'closed.closed': 'هذا النموذج مغلق ولم يعد يقبل إجابات.',
  'footer.no_passwords': 'لا ترسل كلمات المرور عبر هذا النموذج أبدًا.',
  'footer.hosted': 'نموذج مستضاف على \u2068Formward\u2069.',
  'footer.report_abuse': 'الإبلاغ عن إساءة الاستخدام',
  'manage.link_intro':
    'احتفظ بهذا الرابط الخاص للرجوع إلى إجاباتك. لن يظهر إلا الآن، لذا احفظه أو أضفه إلى الإشارات المرجعية. يستطيع أي شخص لديه هذا الرابط فتح إجاباتك.',
  'manage.link_label': 'رابطك إلى هذه الإجابات',
  'manage.view_title': 'إجاباتك',
  'manage.received_at': 'تاريخ الاستلام: \u2068{received_at}\u2069 (بتوقيت UTC)',
  'manage.version': 'الإصدار {version}',
  'manage.edit_until': 'يمكنك تعديلها أو حذفها حتى \u2068{edit_until}\u2069 (بتوقيت UTC).',
  'manage.edit_closed': 'لم يعد بالإمكان تعديلها.',
  'manage.no_value': '(فارغ)',
  'manage.file_value': '\u2068{filename}\u2069 (ملف، {size} بايت)',
  'manage.edit_action': 'تعديل إجاباتك',
  'manage.delete_action': 'حذف هذه الإجابات',
  'manage.edit_submit': 'حفظ التغييرات',
  'manage.edit_saved': 'تم حفظ تغييراتك.',
  'manage.edit_files_kept': 'تبقى الملفات التي أرسلتها كما هي، إذ لا يمكن تغييرها هنا.',
  'manage.edit_closed_title': 'لم يعد بالإمكان تعديل هذه الإجابات',
  'manage.edit_closed_body':
    'انتهت مهلة التعديل أو أُغلق النموذج. وتبقى إجاباتك محفوظة كما أرسلتها.',
  'manage.delete_title': 'هل تريد حذف إجاباتك؟',
  'manage.delete_body': 'سيؤدي هذا إلى حذف ما أرسلته مع أي ملفات نهائيًا، ولا يمكن التراجع عن ذلك.',
  'manage.delete_confirm': 'حذف نهائي',
  'manage.delete_cancel': 'الاحتفاظ بها',
  'manage.deleted_title': 'تم حذف إجاباتك',
  'manage.deleted_body': 'تم حذف ما أرسلته مع أي ملفات.',
  'manage.not_found_title': 'لا يوجد شيء هنا',
  'manage.not_found_body':
    'هذا الرابط لا يؤدي إلى أي شيء: إما أنه غير صحيح أو أن محتواه لم يعد موجودًا.',
};
