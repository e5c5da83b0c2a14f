import type { Messages } from './en';

/** Spanish (Español), formal address (usted). */
export const es: Messages = {
  'page.submit': 'Enviar',
  'page.required_note': 'Los campos marcados {asterisk} son obligatorios.',
  'page.required_asterisk': 'con un asterisco',
  'page.title_error': 'Error: {title}',
  'page.choose': 'Elija una opción…',
  'page.choose_at_least_one': '(elija al menos una)',
  'page.files_accepted': 'Formatos aceptados: {types}.',
  'page.files_choose_again':
    'Los archivos no se conservan cuando el formulario se muestra de nuevo: vuelva a elegirlos.',
  'page.honeypot': 'Deje este campo vacío',
  'field.error_prefix': 'Error:',
  'field.required': 'Este campo es obligatorio.',
  'field.must_be_checked': 'Marque esta casilla.',
  'field.one_value': 'Indique un solo valor.',
  'field.not_text': 'Escriba un texto.',
  'field.not_an_option': 'Elija una de las opciones disponibles («{got}» no es una de ellas).',
  'field.not_a_number': 'Escriba un número.',
  'field.too_small': 'El valor debe ser como mínimo {min}.',
  'field.too_large': 'El valor debe ser como máximo {max}.',
  'field.too_long':
    '{max, plural, one {Escriba como máximo # carácter.} other {Escriba como máximo # caracteres.}}',
  'field.invalid_email': 'Escriba una dirección de correo electrónico válida.',
  'field.invalid_url': 'Escriba una dirección que empiece por http:// o https://.',
  'field.invalid_date': 'Escriba una fecha con el formato AAAA-MM-DD.',
  'field.not_a_file': 'Este campo debe enviarse como archivo.',
  'field.one_file': 'Elija un solo archivo.',
  'field.file_type': 'El tipo del archivo «{filename}» no está permitido ({accepted}).',
  'field.must_not_be_file': 'Este campo no admite archivos.',
  'field.unknown_field': 'Este campo no forma parte del formulario.',
  'field.already_submitted':
    'Este valor ya se ha utilizado en este formulario: cada valor solo puede enviarse una vez.',
  'summary.field_heading': 'Hay un problema',
  'summary.other_heading': 'Sus respuestas no se han enviado',
  'summary.field_item': '{label}: {message}',
  'summary.files_dropped': 'Los archivos elegidos no se han conservado: vuelva a elegirlos.',
  'summary.captcha_failed':
    'La comprobación antispam no se ha superado. Complétela de nuevo y envíe el formulario.',
  'summary.rate_limited':
    'Se han recibido demasiados envíos desde su red en este momento. Espere un minuto y vuelva a enviar el formulario.',
  'summary.payload_too_large':
    'El envío es demasiado grande. Envíe archivos más pequeños o respuestas más cortas.',
  'summary.unavailable':
    'El servicio no está disponible en este momento. No se ha enviado nada: espere unos segundos y vuelva a enviar el formulario.',
  'summary.other':
    'No se han podido enviar sus respuestas. Revíselas y vuelva a enviar el formulario.',
  'thanks.default': '¡Gracias! Hemos recibido su respuesta.',
  'thanks.send_another': 'Enviar otra respuesta',
  'thanks.receipt': '{link}: un registro firmado de lo que se ha recibido.',
  'thanks.receipt_link': 'Descargar el justificante',
  'closed.not_open_yet': 'Este formulario aún no está abierto: se abrirá el {opens_at} (UTC).',
  'closed.full': 'Este formulario ha alcanzado el número máximo de respuestas y está cerrado.',
  'closed.closed': 'Este formulario está cerrado y ya no admite respuestas.',
  'footer.no_passwords': 'No envíe nunca contraseñas a través de este formulario.',
  'footer.hosted': 'Un formulario alojado en Formward.',
  'footer.report_abuse': 'Denunciar un abuso',
  'manage.link_intro':
    'Guarde este enlace privado para volver a su respuesta. Solo se muestra ahora: guárdelo o añádalo a marcadores. Cualquier persona que tenga el enlace puede abrir su respuesta.',
  'manage.link_label': 'Su enlace a esta respuesta',
  'manage.view_title': 'Su respuesta',
  'manage.received_at': 'Recibida: {received_at} (UTC)',
  'manage.version': 'Versión {version}',
  'manage.edit_until': 'Puede modificarla o eliminarla hasta el {edit_until} (UTC).',
  'manage.edit_closed': 'Ya no se puede modificar.',
  'manage.no_value': '(vacío)',
  'manage.file_value': '{filename} (archivo, {size, plural, one {# byte} other {# bytes}})',
  'manage.edit_action': 'Modificar sus respuestas',
  'manage.delete_action': 'Eliminar esta respuesta',
  'manage.edit_submit': 'Guardar cambios',
  'manage.edit_saved': 'Se han guardado sus cambios.',
  'manage.edit_files_kept':
    'Los archivos que envió se mantienen tal cual: no se pueden modificar aquí.',
  'manage.edit_closed_title': 'Esta respuesta ya no se puede modificar',
  'manage.edit_closed_body':
    'El plazo para modificarla ha terminado o el formulario se ha cerrado. Lo que envió se conserva tal como estaba.',
  'manage.delete_title': '¿Eliminar su respuesta?',
  'manage.delete_body':
    'Se eliminará de forma definitiva lo que envió, junto con los archivos. Esta acción no se puede deshacer.',
  'manage.delete_confirm': 'Eliminar definitivamente',
  'manage.delete_cancel': 'Conservarla',
  'manage.deleted_title': 'Su respuesta se ha eliminado',
  'manage.deleted_body': 'Lo que envió se ha eliminado, junto con los archivos.',
  'manage.not_found_title': 'No hay nada aquí',
  'manage.not_found_body':
    'Este enlace no lleva a ningún sitio: es incorrecto o su contenido ya no existe.',
};
