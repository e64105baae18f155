// A stand-in OpenTelemetry collector for `BENCH_TRACE_SAMPLE` runs of
// `npm run bench`: it takes OTLP/HTTP trace exports (http/protobuf, as the
// services send them) and answers as a collector does, with an empty
// ExportTraceServiceResponse, so the services pay the whole cost of exporting.
// It counts what arrived, so a run can show that spans were sent.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Trace export requests and bytes taken so far. */
  received(): { exports: number; bytes: number };
  close(): Promise<void>;
}

export async function startOtlpSink(port: number): Promise<OtlpSink> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      exports += 1;
      // An empty protobuf message: no partial success to report.
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': '0' }).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    received: () => ({ exports, bytes }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
