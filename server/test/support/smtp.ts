// A local SMTP server for tests (smtp-server on loopback): it keeps every email it accepts, with
// its envelope recipients and its message as written, and refuses recipients while `refuse` is set.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  /** The message: headers, a blank line, the body (quoted-printable unfolded). */
  body: string;
}

export interface TestSmtp {
  /** `smtp://127.0.0.1:<port>`. */
  url: string;
  /** Every email accepted, oldest first. */
  mails: Mail[];
  /** While true, every recipient is refused (550). */
  refuse: boolean;
  close(): Promise<void>;
}

/** The message as written: long lines come quoted-printable, cut by soft line breaks. */
const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: Mail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo: (_address, _session, callback) => callback(state.refuse ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), body: unfold(Buffer.concat(chunks).toString('utf8')) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  const state: TestSmtp = {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuse: false,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
  return state;
}
