import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Called for each request: the headers and body that make it unique. */
  vary?: () => { headers?: Record<string, string>; body?: string };
  body?: string;
  seconds: number;
  connections: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Responses that were not the expected status: a benchmark of failures proves nothing. */
  unexpected: number;
  total: number;
}

/** Drives one endpoint at full speed from this process and reports its steady request rate. */
export async function drive(options: LoadOptions, expectedStatus: number): Promise<LoadResult> {
  let unexpected = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        method: options.method,
        headers: options.headers,
        body: options.body,
        setupRequest: (request) => {
          const varied = options.vary?.() ?? {};
          return {
            ...request,
            headers: { ...request.headers, ...varied.headers },
            body: varied.body ?? request.body,
          };
        },
        onResponse: (status) => {
          if (status !== expectedStatus) unexpected++;
        },
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    unexpected: unexpected + result.errors + result.timeouts,
    total: result.requests.total,
  };
}
