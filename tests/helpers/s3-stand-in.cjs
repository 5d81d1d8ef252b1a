/**
 * A local S3-compatible server (s3rver) in a plain Node process, for the benchmark:
 * `node tests/helpers/s3-stand-in.cjs <dir> <bucket>` prints `port=<n>` once listening and
 * stops on SIGTERM. (s3rver's koa stack does not load under tsx's CommonJS hooks.)
 */
const S3rver = require('s3rver')

const [directory, bucket] = process.argv.slice(2)
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] })
server.run().then(({ port }) => console.log(`port=${port}`))
process.on('SIGTERM', () => server.close().then(() => process.exit(0)))
