// Child process for benchmarks: the same framework with one bare route, the reference rate.
import Fastify from 'fastify';

const app = Fastify();
app.post('/empty', async () => ({}));
const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ baseUrl })}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
