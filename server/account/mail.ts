import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createTransport } from 'nodemailer'

/** One e-mail the product sends (invitation, password reset). */
export interface MailMessage {
  to: string
  subject: string
  text: string
}

/** Where a message went: the outbox file it was written to, or the SMTP server's message id. */
export type MailReceipt = { kind: 'outbox'; path: string } | { kind: 'smtp'; messageId: string }

/** The sender address unless DIVE_MAIL_FROM sets one. */
export const DEFAULT_MAIL_FROM = 'Dive <no-reply@dive.localhost>'

/** The outbox folder under the data dir: one RFC 5322 `.eml` file per message, readable by any mail program. */
export function outboxDir(dataDir: string): string {
  return join(dataDir, 'outbox')
}

/**
 * Sends one message. With DIVE_SMTP_URL (e.g. `smtp://user:pass@mail.example:587`) it goes
 * through that SMTP server; otherwise it is written to `<dataDir>/outbox/<time>-<n>.eml`.
 */
export async function sendMail(
  dataDir: string,
  message: MailMessage,
  env: NodeJS.ProcessEnv = process.env,
): Promise<MailReceipt> {
  const from = env.DIVE_MAIL_FROM || DEFAULT_MAIL_FROM
  const smtpUrl = env.DIVE_SMTP_URL
  if (smtpUrl) {
    const info = await createTransport(smtpUrl).sendMail({ from, ...message })
    return { kind: 'smtp', messageId: String(info.messageId) }
  }
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
  const info = await transport.sendMail({ from, ...message })
  const dir = outboxDir(dataDir)
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${nextSequence()}.eml`)
  writeFileSync(path, info.message as Buffer)
  return { kind: 'outbox', path }
}

let sequence = 0
function nextSequence(): string {
  sequence += 1
  return `${process.pid}-${sequence}`
}
