import type { Messages } from './en';

/** Portuguese (Português), in Brazilian usage as CLDR's `pt` is. */
export const pt: Messages = {
  'page.submit': 'Enviar',
  'page.required_note': 'Os campos marcados {asterisk} são obrigatórios.',
  'page.required_asterisk': 'com um asterisco',
  'page.title_error': 'Erro: {title}',
  'page.choose': 'Selecione…',
  'page.choose_at_least_one': '(selecione pelo menos uma)',
  'page.files_accepted': 'Formatos aceitos: {types}.',
  'page.files_choose_again':
    'Os arquivos não são mantidos quando o formulário é exibido novamente: selecione-os de novo.',
  'page.honeypot': 'Deixe este campo em branco',
  'field.error_prefix': 'Erro:',
  'field.required': 'Este campo é obrigatório.',
  'field.must_be_checked': 'Marque esta caixa.',
  'field.one_value': 'Informe apenas um valor.',
  'field.not_text': 'Digite um texto.',
  'field.not_an_option': 'Selecione uma das opções disponíveis (“{got}” não é uma delas).',
  'field.not_a_number': 'Digite um número.',
  'field.too_small': 'O valor deve ser no mínimo {min}.',
  'field.too_large': 'O valor deve ser no máximo {max}.',
  'field.too_long':
    '{max, plural, one {Digite no máximo # caractere.} other {Digite no máximo # caracteres.}}',
  'field.invalid_email': 'Digite um endereço de e-mail válido.',
  'field.invalid_url': 'Digite um endereço que comece com http:// ou https://.',
  'field.invalid_date': 'Digite uma data no formato AAAA-MM-DD.',
  'field.not_a_file': 'Este campo deve ser enviado como arquivo.',
  'field.one_file': 'Selecione apenas um arquivo.',
  'field.file_type': 'O tipo do arquivo “{filename}” não é aceito ({accepted}).',
  'field.must_not_be_file': 'Este campo não aceita arquivos.',
  'field.unknown_field': 'Este campo não faz parte do formulário.',
  'field.already_submitted':
    'Este valor já foi usado neste formulário: cada valor só pode ser enviado uma vez.',
  'summary.field_heading': 'Há um problema',
  'summary.other_heading': 'Suas respostas não foram enviadas',
  'summary.field_item': '{label}: {message}',
  'summary.files_dropped': 'Os arquivos selecionados não foram mantidos: selecione-os de novo.',
  'summary.captcha_failed':
    'A verificação anti-spam não foi aprovada. Faça-a novamente e envie o formulário.',
  'summary.rate_limited':
    'Muitos envios saíram da sua rede agora há pouco. Aguarde um minuto e envie o formulário novamente.',
  'summary.payload_too_large':
    'O envio é grande demais. Envie arquivos menores ou respostas mais curtas.',
  'summary.unavailable':
    'O serviço está indisponível no momento. Nada foi enviado: aguarde alguns segundos e envie o formulário novamente.',
  'summary.other':
    'Não foi possível enviar suas respostas. Confira-as e envie o formulário novamente.',
  'thanks.default': 'Obrigado! Recebemos sua resposta.',
  'thanks.send_another': 'Enviar outra resposta',
  'thanks.receipt': '{link}: um registro assinado do que foi recebido.',
  'thanks.receipt_link': 'Baixe seu comprovante',
  'closed.not_open_yet': 'Este formulário ainda não está aberto: ele abre em {opens_at} (UTC).',
  'closed.full': 'Este formulário atingiu o número máximo de respostas e está fechado.',
  'closed.closed': 'Este formulário está fechado e não aceita mais respostas.',
  'footer.no_passwords': 'Nunca envie senhas por este formulário.',
  'footer.hosted': 'Um formulário hospedado pelo Formward.',
  'footer.report_abuse': 'Denunciar abuso',
  'manage.link_intro':
    'Guarde este link privado para voltar à sua resposta. Ele só aparece agora: salve-o ou adicione-o aos favoritos. Qualquer pessoa com este link pode abrir sua resposta.',
  'manage.link_label': 'Seu link para esta resposta',
  'manage.view_title': 'Sua resposta',
  'manage.received_at': 'Recebida em {received_at} (UTC)',
  'manage.version': 'Versão {version}',
  'manage.edit_until': 'Você pode alterá-la ou excluí-la até {edit_until} (UTC).',
  'manage.edit_closed': 'Ela não pode mais ser alterada.',
  'manage.no_value': '(vazio)',
  'manage.file_value': '{filename} (arquivo, {size, plural, one {# byte} other {# bytes}})',
  'manage.edit_action': 'Alterar suas respostas',
  'manage.delete_action': 'Excluir esta resposta',
  'manage.edit_submit': 'Salvar alterações',
  'manage.edit_saved': 'Suas alterações foram salvas.',
  'manage.edit_files_kept':
    'Os arquivos enviados continuam como estão: eles não podem ser alterados aqui.',
  'manage.edit_closed_title': 'Esta resposta não pode mais ser alterada',
  'manage.edit_closed_body':
    'O prazo para alterar esta resposta terminou ou o formulário foi fechado. O que você enviou continua como estava.',
  'manage.delete_title': 'Excluir sua resposta?',
  'manage.delete_body':
    'Isso exclui definitivamente o que você enviou, incluindo os arquivos. Não é possível desfazer.',
  'manage.delete_confirm': 'Excluir definitivamente',
  'manage.delete_cancel': 'Manter',
  'manage.deleted_title': 'Sua resposta foi excluída',
  'manage.deleted_body': 'O que você enviou, incluindo os arquivos, foi excluído.',
  'manage.not_found_title': 'Nada por aqui',
  'manage.not_found_body':
    'Este link não leva a lugar nenhum: ele está errado ou o conteúdo não existe mais.',
};
