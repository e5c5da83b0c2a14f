import type { Messages } from './en';

/** Japanese (日本語), the polite wording usual on web forms. */
export const ja: Messages = {
  'page.submit': '送信',
  'page.required_note': '{asterisk}の付いた項目は必須です。',
  'page.required_asterisk': 'アスタリスク',
  'page.title_error': 'エラー：{title}',
  'page.choose': '選択してください',
  'page.choose_at_least_one': '（1つ以上選択してください）',
  'page.files_accepted': '対応形式：{types}',
  'page.files_choose_again':
    'フォームを再表示すると、選択したファイルは保持されません。もう一度選択してください。',
  'page.honeypot': 'この欄には何も入力しないでください',
  'field.error_prefix': 'エラー：',
  'field.required': 'この項目は必須です。',
  'field.must_be_checked': 'チェックを入れてください。',
  'field.one_value': '値は1つだけ入力してください。',
  'field.not_text': 'テキストを入力してください。',
  'field.not_an_option': '選択肢から選んでください（「{got}」は選択肢にありません）。',
  'field.not_a_number': '数値を入力してください。',
  'field.too_small': '{min}以上の値を入力してください。',
  'field.too_large': '{max}以下の値を入力してください。',
  'field.too_long': '{max, plural, other {#文字以内で入力してください。}}',
  'field.invalid_email': '有効なメールアドレスを入力してください。',
  'field.invalid_url': 'http:// または https:// で始まるURLを入力してください。',
  'field.invalid_date': '日付はYYYY-MM-DD形式で入力してください。',
  'field.not_a_file': 'この項目はファイルで送信してください。',
  'field.one_file': 'ファイルは1つだけ選択してください。',
  'field.file_type': '「{filename}」は対応していないファイル形式です（対応形式：{accepted}）。',
  'field.must_not_be_file': 'この項目にはファイルを送信できません。',
  'field.unknown_field': 'この項目はこのフォームにありません。',
  'summary.field_heading': '入力内容に問題があります',
  'summary.other_heading': '送信できませんでした',
  'summary.field_item': '{label}：{message}',
  'summary.files_dropped': '選択したファイルは保持されていません。もう一度選択してください。',
  'summary.captcha_failed':
    'スパム対策の確認が完了しませんでした。もう一度確認を行ってから送信してください。',
  'summary.rate_limited':
    'お使いのネットワークからの送信が集中しています。1分ほど待ってから、もう一度送信してください。',
  'summary.payload_too_large':
    '送信内容が大きすぎます。ファイルを小さくするか、回答を短くしてください。',
  'summary.unavailable':
    'ただいまサービスを一時的に利用できません。送信は完了していません。数秒待ってから、もう一度送信してください。',
  'summary.other': '回答を送信できませんでした。内容をご確認のうえ、もう一度送信してください。',
  'thanks.default': 'ありがとうございます。回答を受け付けました。',
  'thanks.send_another': '別の回答を送信する',
  'thanks.receipt': '{link}（受信内容の署名付き記録）',
  'thanks.receipt_link': '受領証をダウンロード',
  'closed.not_open_yet':
    'このフォームはまだ受付を開始していません。受付開始は{opens_at}（UTC）です。',
  'closed.full': 'このフォームは受付数の上限に達したため、受付を終了しました。',
  'closed.closed': 'このフォームの受付は終了しました。',
  'footer.no_passwords': 'このフォームからパスワードを送信しないでください。',
  'footer.hosted': 'Formwardでホストされているフォームです。',
  'footer.report_abuse': '不正利用を報告',
};
