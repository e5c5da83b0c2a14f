/** What nodemailer attaches to an error that carries an SMTP reply. */
type SmtpErrorShape = { code?: unknown; responseCode?: unknown; permanent?: unknown };

/**
 * True when the SMTP server refused the message for good (a 5xx reply to MAIL FROM, RCPT TO
 * or DATA): sending the same message again gets the same answer, so retrying is pointless.
 * Not permanent: 4xx replies, 503 (a session out of step, which a new connection fixes),
 * connection failures and timeouts, and refused credentials (535), which are our own
 * configuration's fault and go through once SMTP_URL is fixed.
 */
export function isPermanentSmtpRejection(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, responseCode, permanent } = error as SmtpErrorShape;
  if (code === 'EAUTH' || typeof responseCode !== 'number') return false;
  // nodemailer classifies the reply itself (5xx except 503); older shapes only have the code.
  if (typeof permanent === 'boolean') return permanent;
  return responseCode >= 500 && responseCode <= 599 && responseCode !== 503;
}
