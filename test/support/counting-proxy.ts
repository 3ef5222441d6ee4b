import { createServer, request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

/**
 * A forwarder in front of the sandbox that counts every certification POST by X-Request-Id and
 * records every request's headers as it crosses the wire. Not a stand-in: the real sandbox answers
 * every request; this only observes.
 */
export async function countingProxy(target: string): Promise<{
  url: string;
  posts: Map<string, number>;
  requests: SeenRequest[];
  close(): Promise<void>;
}> {
  const to = new URL(target);
  const posts = new Map<string, number>();
  const requests: SeenRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    requests.push({ method: incoming.method ?? '', path: incoming.url ?? '', headers: incoming.headers });
    const id = incoming.headers['x-request-id'];
    if (incoming.method === 'POST' && typeof id === 'string') posts.set(id, (posts.get(id) ?? 0) + 1);
    const forwarded = request(
      {
        host: to.hostname,
        port: to.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    requests,
    // Every connection ends with it: a keep-alive one left open would hold a test's teardown.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
