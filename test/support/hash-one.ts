// Hashes one file through the real worker pool and prints the outcome: lets a test run the
// hasher as another (unprivileged) user, since root may read any file.
import { HashPool } from '../../main/hashing/hash-pool';

const pool = new HashPool(1);
const outcome = await pool.hash(process.argv[2] as string);
process.stdout.write(JSON.stringify(outcome));
await pool.close();
