"""Test-only SMTP server: accepts every message on 127.0.0.1 and appends it, as a
JSON line, to the file given with ``--out`` once its ``250`` reply is due.

``--hold-domain D --hold SECONDS``: the first DATA of each message to a recipient
at D is held for SECONDS (``holding <Message-ID>`` is printed when it starts), as
a slow mail server would. A message whose client went away meanwhile is dropped,
never recorded: like a real server, the sink takes a message on only when it can
answer ``250``. Prints ``listening <port>`` once it accepts connections.
"""

import argparse
import asyncio
import json
import signal
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session


class Sink:
    def __init__(self, out: Path, hold_domain: str | None, hold: float) -> None:
        self.out = out
        self.hold_domain = hold_domain
        self.hold = hold
        self.held: set[str] = set()

    async def handle_DATA(
        self, server: SMTP, session: Session, envelope: Envelope
    ) -> str:
        content = envelope.original_content or b""
        message = message_from_bytes(content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        message_id = str(message["Message-ID"])
        recipients = [str(address) for address in envelope.rcpt_tos]
        held = self.hold_domain is not None and any(
            address.endswith(f"@{self.hold_domain}") for address in recipients
        )
        if held and message_id not in self.held:
            self.held.add(message_id)
            print(f"holding {message_id}", flush=True)
            try:
                await asyncio.sleep(self.hold)
            except asyncio.CancelledError:
                # aiosmtpd cancels the handler when its client disconnects.
                print(f"dropped {message_id}", flush=True)
                raise
            if server.transport is None or server.transport.is_closing():
                print(f"dropped {message_id}", flush=True)
                return "421 client gone"
        body = message.get_body(("plain", "html"))
        record: dict[str, Any] = {
            "from": envelope.mail_from,
            "to": recipients,
            "subject": str(message["Subject"]),
            "message_id": message_id,
            "content_type": body.get_content_type() if body else None,
            "body": body.get_content() if body else "",
        }
        with self.out.open("a") as file:
            file.write(json.dumps(record) + "\n")
        return "250 Message accepted for delivery"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--hold-domain")
    parser.add_argument("--hold", type=float, default=0.0)
    args = parser.parse_args()
    controller = Controller(
        Sink(args.out, args.hold_domain, args.hold),
        hostname="127.0.0.1",
        port=args.port,
    )
    controller.start()
    print(f"listening {args.port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.new_event_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    loop.run_until_complete(stop.wait())
    controller.stop()


if __name__ == "__main__":
    main()
