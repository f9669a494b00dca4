"""Test-only OTLP/HTTP receiver: decodes the protobuf trace exports it is sent.

Listens on 127.0.0.1 (port 0: any free one), prints ``{"port": N}`` first, then one
JSON line per ``POST /v1/traces``: its content type, and for each span its name and the
``service.name`` of its resource, decoded with the OTLP protobuf messages.
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (the name http.server calls)
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        spans = []
        for resource_spans in request.resource_spans:
            service = next(
                (
                    a.value.string_value
                    for a in resource_spans.resource.attributes
                    if a.key == "service.name"
                ),
                None,
            )
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    spans.append({"name": span.name, "service": service})
        line = {
            "path": self.path,
            "content_type": self.headers.get("content-type"),
            "spans": spans,
        }
        print(json.dumps(line), flush=True)
        reply = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
