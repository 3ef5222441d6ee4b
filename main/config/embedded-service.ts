/**
 * What the core needs of the embedded service: where it listens, its demo client and its DEMO
 * timestamping authority. The shells pass in how to start one (the sandbox); the core never
 * imports it, so what runs inside Evidence Desk is a choice made at the edge.
 */
export interface EmbeddedService {
  baseUrl: string;
  tokenUrl: string;
  demoClient: { clientId: string; clientSecret: string };
  tsa: { url: string; rootPem: string };
  stop(): Promise<void>;
}

/** Starts the embedded service on loopback, keeping its data in the file given. */
export type EmbeddedServiceStarter = (dbPath: string) => Promise<EmbeddedService>;
